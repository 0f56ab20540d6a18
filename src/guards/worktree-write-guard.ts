/**
 * The file-tool wall of a worktree-isolated worker: its Write, Edit and NotebookEdit may touch files only in
 * its own worktree and in the workbench. Claude Code already refuses an isolated agent's edit of a path in
 * the main checkout, but not one outside the repository (a file in HOME or /tmp); this guard refuses both,
 * with a reason the model can act on.
 *
 * @module
 */
import { join, relative, resolve, sep } from 'node:path';
import { isPathInside, isPathInsideAny } from '../workbench/path-inside.js';
import type { Guard, GuardDecision } from './guard.js';

/** The file tools the wall covers, and the input field holding each one's path. */
export const FILE_TOOL_PATHS: Readonly<Record<string, string>> = Object.freeze({
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
});

/** Options of {@link worktreeWriteGuard}. */
export interface WorktreeWriteGuardOptions {
  /** Role names whose dispatches run in a worktree. */
  isolate: ReadonlySet<string>;
  /** The main checkout: its worktrees are in `.claude/worktrees` below it. */
  workspace: string;
  /** Folders an isolated worker may also write in (the workbench root). */
  alsoWritable?: readonly string[];
}

/**
 * A PreToolUse guard on the file tools, fail closed: a call from a subagent of an isolated role whose path is
 * outside its worktree and outside `alsoWritable` is denied; everything else passes. Null without isolated
 * roles.
 */
export function worktreeWriteGuard(options: WorktreeWriteGuardOptions): Guard | null {
  if (options.isolate.size === 0) return null;
  const worktrees = join(options.workspace, '.claude', 'worktrees');
  const alsoWritable = options.alsoWritable ?? [];
  return {
    name: 'worktree-write',
    event: 'PreToolUse',
    matcher: Object.keys(FILE_TOOL_PATHS).join('|'),
    failClosed: true,
    decide(input): GuardDecision {
      if (input.agentType === null || !options.isolate.has(input.agentType)) return { action: 'pass' };
      const field = FILE_TOOL_PATHS[input.toolName];
      const path = field === undefined ? undefined : input.toolInput[field];
      if (typeof path !== 'string' || path === '') return { action: 'pass' };
      const target = resolve(input.cwd, path);
      const home = worktreeOf(input.cwd, worktrees);
      if (isPathInsideAny(target, [home, ...alsoWritable])) return { action: 'pass' };
      const elsewhere = alsoWritable.length > 0 ? ` or in the workbench (${alsoWritable.join(', ')})` : '';
      return {
        action: 'deny',
        reason: `You work in your own worktree ${home}: write files only there${elsewhere}. ${target} is outside it; use the path inside your worktree.`,
      };
    },
  };
}

/** The worktree `cwd` lies in (its folder directly below `worktrees`), or `cwd` itself when it lies in none. */
function worktreeOf(cwd: string, worktrees: string): string {
  if (!isPathInside(cwd, worktrees)) return cwd;
  const first = relative(worktrees, cwd).split(sep)[0] ?? '';
  return first === '' ? cwd : join(worktrees, first);
}
