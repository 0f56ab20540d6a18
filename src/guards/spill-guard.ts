/**
 * Spill on the spot (docs/guards.md, layer 3): a PostToolUse guard that saves a tool result of
 * 4,000 characters or more (decisions.md D21) under `<workbench>/spill/` and shows the model a pointer plus
 * the first 400 characters instead. In the reference's HT001 run, 103 spills kept 791.4K characters out of
 * the coordinator's context. Subagent results spill too, and so do subagent reports and MCP results
 * (docs/guards.md), except the human channel's.
 *
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { FlowerError } from '../errors.js';
import type { EventSink, SpillEvent } from '../events/flower-event.js';
import { isPathInsideAny } from '../workbench/path-inside.js';
import type { Workbench } from '../workbench/workbench.js';
import type { Guard, GuardDecision, ToolHookInput } from './guard.js';
import { isMainThread } from './main-thread.js';
import { codePointLength, shrinkToolResponse } from './spill-output.js';
import { matchesTool, SPILL_TOOLS } from './tool-groups.js';

export { BULKY, HANDS_ON, SPILL_TOOLS } from './tool-groups.js';

/** Options of {@link spillGuard}. */
export interface SpillGuardOptions {
  /** Spill texts of this many code points or more (default 4000); null or 0 turns the guard off. */
  threshold?: number | null;
  /** Tool matcher (default {@link SPILL_TOOLS}). */
  tools?: string;
  /** Spill main-thread results only (default false: subagents fill their own context just as fast). */
  mainOnly?: boolean;
  /** Receives one `spill` event per text saved. */
  onSpill?: EventSink | null;
  /** The step the guard serves, carried by its events; null (default) outside a step. */
  step?: string | null;
}

/** Code points of the spilled text shown after the pointer. */
export const SPILL_HEAD_LENGTH = 400;

/** The trim archive (docs/context-economy.md): always in the workspace, readable the same way. */
const TRIM_SPILL = join('.flower', 'spill');

/**
 * The spill guard, or null when `threshold` is null or 0. Reading a spilled file back is never spilled
 * again (a Read, Grep or Glob whose target, resolved against the call's cwd, is inside the spill directory
 * or the trim archive; a Bash command naming either): the reference measured a re-spill loop that cost
 * five workaround attempts.
 */
export function spillGuard(workbench: Workbench, options: SpillGuardOptions = {}): Guard | null {
  const threshold = options.threshold === undefined ? 4000 : options.threshold;
  if (threshold === null || threshold === 0) return null;
  if (!Number.isFinite(threshold) || threshold < 0) {
    throw new FlowerError(
      'CONFIG_INVALID',
      `The spill threshold must be a positive number of characters (got ${threshold}); ` +
        'use 0 or null to turn spilling off.',
    );
  }
  const tools = options.tools ?? SPILL_TOOLS;
  const mainOnly = options.mainOnly ?? false;
  const spillDirectories = [workbench.spill, join(workbench.workspace, TRIM_SPILL)];
  return {
    name: 'spill',
    event: 'PostToolUse',
    matcher: tools,
    failClosed: false,
    decide(input): GuardDecision {
      if (mainOnly && !isMainThread(input)) return { action: 'pass' };
      if (!matchesTool(tools, input.toolName)) return { action: 'pass' };
      if (readsSpill(input, workbench, spillDirectories)) return { action: 'pass' };
      const spilled: Array<{ chars: number; path: string }> = [];
      const output = shrinkToolResponse(input.toolName, input.toolResponse, threshold, (text) => {
        const saved = stash(workbench, text);
        spilled.push(saved);
        return spillPointer(saved.chars, workbench.display(saved.path), text);
      });
      if (output === undefined) return { action: 'pass' };
      const step = options.step ?? null;
      for (const saved of spilled) emit(options.onSpill, spillEvent(input, saved, workbench, step));
      return { action: 'replace', output };
    },
  };
}

/**
 * The text the model sees instead of a spilled one: the size, where the full text is, how to get at it,
 * and the first 400 characters with line breaks as spaces (trailing blanks dropped). Model-facing, so an
 * English literal kept here (decisions.md D1).
 */
export function spillPointer(chars: number, displayedPath: string, text: string): string {
  const head = Array.from(text.slice(0, SPILL_HEAD_LENGTH * 2))
    .slice(0, SPILL_HEAD_LENGTH)
    .join('')
    .replace(/\r\n|\r|\n/g, ' ')
    // Trailing blanks are trimmed by some of the binary's formatters anyway (Bash); dropping them keeps the
    // pointer the same whichever tool it stands in for.
    .trimEnd();
  return (
    `[${chars} characters spilled to ${displayedPath} — Read it for all of it, Grep to search it]\n` +
    `First ${SPILL_HEAD_LENGTH} characters: ${head}`
  );
}

/**
 * Writes `text` to `<spill>/<first 16 hex of its SHA-256>.txt` unless that file exists (same name, same
 * content), through a temp file and a rename so a concurrent reader never sees half of it.
 */
function stash(workbench: Workbench, text: string): { chars: number; path: string } {
  const name = `${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}.txt`;
  const path = join(workbench.spill, name);
  if (!existsSync(path)) {
    mkdirSync(workbench.spill, { recursive: true });
    const temporary = join(workbench.spill, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      writeFileSync(temporary, text, 'utf8');
      renameSync(temporary, path);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  return { chars: codePointLength(text), path };
}

/** Whether the call reads a spilled file back: such a result must reach the model whole. */
function readsSpill(input: ToolHookInput, workbench: Workbench, directories: readonly string[]): boolean {
  const target = targetPath(input);
  if (target !== null) return isPathInsideAny(resolve(input.cwd, target), directories);
  if (input.toolName !== 'Bash') return false;
  const command = input.toolInput['command'];
  if (typeof command !== 'string') return false;
  // A shell command is not parsed for paths; naming a spill directory in any form is enough.
  const forms = directories.flatMap((directory) => [resolve(directory), workbench.display(directory)]);
  return forms.some((form) => command.includes(form));
}

/** The file or directory a path-based reading tool works on; null for other tools. */
function targetPath(input: ToolHookInput): string | null {
  const value = (key: string): string | null => {
    const field = input.toolInput[key];
    return typeof field === 'string' && field !== '' ? field : null;
  };
  switch (input.toolName) {
    case 'Read':
      return value('file_path');
    case 'Grep':
    case 'Glob':
      // Both search the cwd when no path is given.
      return value('path') ?? '.';
    default:
      return null;
  }
}

function spillEvent(
  input: ToolHookInput,
  saved: { chars: number; path: string },
  workbench: Workbench,
  step: string | null,
): SpillEvent {
  const path = workbench.display(saved.path);
  return {
    kind: 'spill',
    text: `${input.toolName} result of ${saved.chars} characters spilled to ${path}`,
    at: Date.now() / 1000,
    step,
    subagent: !isMainThread(input),
    // A hook call does not say which Agent call started its subagent.
    parentToolUseId: null,
    tool: input.toolName,
    chars: saved.chars,
    path,
  };
}

function emit(sink: EventSink | null | undefined, event: SpillEvent): void {
  if (sink === null || sink === undefined) return;
  try {
    sink(event);
  } catch {
    // An observer's failure must not undo a spill that already happened.
  }
}
