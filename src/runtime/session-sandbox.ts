/**
 * The Bash sandbox of one session: always on where it can run (the credential variables scrubbed from
 * Bash), and with worktree-isolated workers also a write wall for the main checkout.
 *
 * Claude Code always lets sandboxed commands write in the session's starting folder — the main checkout —
 * and the worktrees sit inside it (`.claude/worktrees`), where a deny of the whole checkout would reach
 * them too (a deny wins over an allow). So the wall is made of the checkout's entries as they are when the
 * session starts: every file and folder except `.git` (a commit in a worktree writes there), the worktrees
 * and the run's temp folder (Claude Code keeps each command's working-folder marker there); a folder that
 * holds one of those is walked into and its other entries walled. A file created later directly in a
 * walkable folder (the top of the checkout, `.claude`) is not covered; docs/workbench.md says so.
 *
 * @module
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSpec } from '../agent/agent-spec.js';
import { bashSandbox, type SandboxSettings } from '../agent/bash-sandbox.js';
import { sandboxSupport } from '../agent/sandbox-support.js';
import type { Env } from '../config/process-environment.js';
import { isolatedRoles } from '../guards/agent-input-guard.js';
import type { RuntimeWarning } from './describe-event.js';
import { isPathInside } from '../workbench/path-inside.js';
import type { Workbench } from '../workbench/workbench.js';

/** Where the bundled Claude Code puts the worktree of an isolated dispatch, under the repository. */
export const WORKTREES_FOLDER = join('.claude', 'worktrees');

/** What {@link sessionSandbox} needs to know about the runtime. */
export interface SessionSandboxContext {
  workspace: string;
  runDir: string;
  env: Env;
  workbench: Workbench | null;
  /** False: the configuration turned the sandbox off (`FLOWER_SANDBOX=off`). */
  sandbox?: boolean;
}

/** Why the shell runs unsandboxed when the user turned the sandbox off. */
export const SANDBOX_TURNED_OFF = 'turned off by FLOWER_SANDBOX=off';

/** The sandbox for `spec`'s sessions, or null where it is turned off or cannot run here. */
export function sessionSandbox(context: SessionSandboxContext, spec: AgentSpec): SandboxSettings | null {
  if (context.sandbox === false) return null;
  if (!sandboxSupport(context.env['PATH'] ?? '').available) return null;
  if (isolatedRoles(spec.agents ?? {}).size === 0) return bashSandbox();
  // Claude Code keeps each command's temp files and working-folder marker in the run's temp folder.
  const roots = [
    join(context.workspace, WORKTREES_FOLDER),
    join(context.workspace, '.git'),
    join(context.runDir, 'tmp'),
  ];
  // The workbench is the workers' shared layer wherever it is (outside the repository, or in a run directory).
  if (context.workbench !== null) roots.push(context.workbench.root);
  return bashSandbox({ writeRoots: roots, denyWrite: mainCheckoutWall(context.workspace, roots) });
}

/**
 * The paths under `workspace` an isolated session's Bash may not write: every entry as it is now, except
 * those that are or hold a path of `writable` (those are walked into instead, so only their siblings are
 * walled).
 */
export function mainCheckoutWall(workspace: string, writable: readonly string[]): string[] {
  const wall: string[] = [];
  const walk = (folder: string): void => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      if (writable.some((kept) => isPathInside(path, kept))) continue;
      if (writable.some((kept) => isPathInside(kept, path))) walk(path);
      else wall.push(path);
    }
  };
  walk(workspace);
  return wall;
}

/**
 * The warning that the agent's Bash runs unsandboxed here (its commands see the credentials, and an
 * isolated worker's commands are not walled), or null when the sandbox can run. The runtime gives it once,
 * as a notice its step describes. `enabled` false (the user turned the sandbox off) gives the warning
 * without probing.
 */
export function unsandboxedWarning(
  env: Env,
  enabled = true,
  step: string | null = null,
): RuntimeWarning | null {
  const support = enabled
    ? sandboxSupport(env['PATH'] ?? '')
    : ({ available: false, reason: SANDBOX_TURNED_OFF } as const);
  if (support.available) return null;
  return {
    kind: 'warning',
    code: 'shell_not_sandboxed',
    detail: support.reason,
    at: Date.now() / 1000,
    step,
  };
}
