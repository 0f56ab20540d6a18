/**
 * Machine checks beside the goal's checklist items (docs/goal-checks.md). Each item of `notes/goal.md` may
 * carry a fenced `check` block of `key: value` lines that a person can read and edit: a command flower runs
 * itself, where, for how long, and what counts as passing; or `manual:` with the reason no command can check
 * it (and `needs:` when it needs an environment flower is not in, such as another operating system). The
 * blocks are validated when read: a malformed one is a {@link CheckProblem} the goal setter is asked to fix,
 * never dropped in silence, because a dropped check is a goal that quietly got easier.
 *
 * @module
 */
import { isAbsolute, normalize, sep } from 'node:path';
import { Goal, UNVERIFIABLE_MARKER } from './goal.js';

/** A check flower runs: a command, and what its run must show. */
export interface CommandCheck {
  readonly kind: 'command';
  /** The shell command (`sh -c`); '' when the check only looks at a file. */
  readonly run: string;
  /** The working directory, relative to the workspace; `.` by default. */
  readonly cwd: string;
  /** Seconds before the command is killed (and fails); 60 by default. */
  readonly timeoutS: number;
  /** The exit code that passes; 0 by default. */
  readonly exit: number;
  /** A regular expression stdout must match, or null. */
  readonly stdout: string | null;
  /** A file (relative to `cwd`) that must exist after the command, or null. */
  readonly file: string | null;
  /** The file's SHA-256 in hex, or null. */
  readonly sha256: string | null;
  /** A regular expression the file's content must match, or null. */
  readonly contains: string | null;
}

/** An item no command checks: the judge looks at it; with `needs`, it cannot be verified on this host. */
export interface ManualCheck {
  readonly kind: 'manual';
  /** Why no command checks it. */
  readonly reason: string;
  /** The environment it needs (`macOS`, `an iPhone`, `a paid API key`), or null. */
  readonly needs: string | null;
}

/** A check of either kind. */
export type ItemCheck = CommandCheck | ManualCheck;

/** One checklist item with its check, or with the problem that kept its check from being read. */
export interface CheckedItem {
  /** The item's position in the checklist, from 0. */
  readonly index: number;
  /** The item as written (the unverifiable marker included). */
  readonly item: string;
  /** The check; null when the block is missing or malformed. */
  readonly check: ItemCheck | null;
  /** What is wrong with the block; null when it was read. */
  readonly problem: string | null;
}

/** A problem with one item's check, as reported back to the goal setter. */
export interface CheckProblem {
  readonly index: number;
  readonly item: string;
  readonly problem: string;
}

/** The goal's checklist read as checks. */
export interface GoalChecks {
  /** True when the goal uses machine checks at all (any item has a block); false for a checklist of prose. */
  readonly active: boolean;
  readonly items: readonly CheckedItem[];
  readonly problems: readonly CheckProblem[];
}

/** Seconds a check may run when its block names no `timeout`. */
export const DEFAULT_CHECK_TIMEOUT_S = 60;
/** The longest `timeout` a block may ask for, in seconds. */
export const MAX_CHECK_TIMEOUT_S = 3600;

const COMMAND_KEYS = ['run', 'cwd', 'timeout', 'exit', 'stdout', 'file', 'sha256', 'contains'] as const;
const MANUAL_KEYS = ['manual', 'needs'] as const;
const KEYS: ReadonlySet<string> = new Set([...COMMAND_KEYS, ...MANUAL_KEYS]);

/**
 * Reads every item's check. A goal without any block is inactive (its items are the judge's to check, as
 * before machine checks existed); once one item has a block, every item needs one, and an item carrying the
 * `[unverifiable here: …]` marker without a block counts as manual with that reason as what it needs.
 */
export function goalChecks(goal: Goal): GoalChecks {
  const active = goal.hasBlocks();
  const items = goal.checks.map((item, index): CheckedItem => {
    const block = goal.blocks[index] ?? '';
    if (block === '') {
      const marked = markerReason(item);
      if (marked !== null) {
        return { index, item, check: { kind: 'manual', reason: marked, needs: marked }, problem: null };
      }
      return {
        index,
        item,
        check: null,
        problem: active
          ? 'no check block: add a ```check block with `run:`, or `manual: <reason>` when no command can check it'
          : null,
      };
    }
    const read = parseCheckBlock(block);
    return typeof read === 'string'
      ? { index, item, check: null, problem: read }
      : { index, item, check: read, problem: null };
  });
  const problems = items.flatMap((entry) =>
    entry.problem === null ? [] : [{ index: entry.index, item: entry.item, problem: entry.problem }],
  );
  return { active, items, problems };
}

/** The goal at `path` read as checks; null when there is no complete goal there. */
export function loadGoalChecks(path: string): { goal: Goal; checks: GoalChecks } | null {
  const goal = Goal.load(path);
  if (goal === null || !goal.complete()) return null;
  return { goal, checks: goalChecks(goal) };
}

/**
 * One block's body read as a check, or a one-line problem saying what is wrong and what to write instead.
 * Lines are `key: value`; blank lines and lines starting with `#` are skipped.
 */
export function parseCheckBlock(body: string): ItemCheck | string {
  const fields = new Map<string, string>();
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z0-9_-]+)\s*:\s?(.*)$/.exec(line);
    if (match === null) return `cannot read the line "${line}": write one \`key: value\` per line`;
    const key = (match[1] ?? '').toLowerCase();
    if (!KEYS.has(key)) {
      return `unknown key "${key}": use ${[...COMMAND_KEYS].join(', ')}, or manual and needs`;
    }
    if (fields.has(key)) return `"${key}" is given twice`;
    fields.set(key, (match[2] ?? '').trim());
  }
  if (fields.has('manual')) return manualCheck(fields);
  return commandCheck(fields);
}

function manualCheck(fields: ReadonlyMap<string, string>): ManualCheck | string {
  const extra = COMMAND_KEYS.filter((key) => fields.has(key));
  if (extra.length > 0) return `a manual check cannot also have ${extra.join(', ')}: keep one kind`;
  const reason = fields.get('manual') ?? '';
  if (reason === '') return '"manual" needs a reason, such as `manual: needs a person to look at the screen`';
  const needs = fields.get('needs');
  if (needs !== undefined && needs === '') return '"needs" names an environment, such as `needs: macOS`';
  return { kind: 'manual', reason, needs: needs ?? null };
}

function commandCheck(fields: ReadonlyMap<string, string>): CommandCheck | string {
  if (fields.has('needs')) return '"needs" belongs to a manual check: add `manual: <reason>` or drop it';
  const run = fields.get('run') ?? '';
  const file = fields.get('file') ?? null;
  if (run === '' && (file === null || file === '')) {
    return 'no command: add `run: <command>` (or `file: <path>`), or `manual: <reason>`';
  }
  const cwd = fields.get('cwd') ?? '.';
  const cwdProblem = relativeProblem('cwd', cwd);
  if (cwdProblem !== null) return cwdProblem;
  if (file !== null) {
    const fileProblem = file === '' ? '"file" is empty' : relativeProblem('file', file);
    if (fileProblem !== null) return fileProblem;
  }
  const timeoutS = wholeNumber(fields.get('timeout'), DEFAULT_CHECK_TIMEOUT_S);
  if (timeoutS === null || timeoutS < 1 || timeoutS > MAX_CHECK_TIMEOUT_S) {
    return `"timeout" is whole seconds from 1 to ${MAX_CHECK_TIMEOUT_S}`;
  }
  const exit = wholeNumber(fields.get('exit'), 0);
  if (exit === null || exit < 0 || exit > 255) return '"exit" is the exit code that passes, 0 to 255';
  const sha256 = fields.get('sha256') ?? null;
  const contains = fields.get('contains') ?? null;
  if ((sha256 !== null || contains !== null) && file === null) {
    return '"sha256" and "contains" describe a file: add `file: <path>`';
  }
  if (sha256 !== null && !/^[0-9a-f]{64}$/i.test(sha256)) return '"sha256" is 64 hex digits';
  const stdout = fields.get('stdout') ?? null;
  for (const [key, pattern] of [
    ['stdout', stdout],
    ['contains', contains],
  ] as const) {
    if (pattern === null) continue;
    if (pattern === '') return `"${key}" is empty: give a regular expression or drop the line`;
    try {
      new RegExp(pattern, 'm');
    } catch (error) {
      return `"${key}" is not a valid regular expression (${(error as Error).message})`;
    }
  }
  return {
    kind: 'command',
    run,
    cwd: normalize(cwd),
    timeoutS,
    exit,
    stdout,
    file,
    sha256: sha256?.toLowerCase() ?? null,
    contains,
  };
}

/** The command a check runs, or what it looks at, in one line for a table. */
export function describeCheck(check: ItemCheck | null): string {
  if (check === null) return '(no valid check)';
  if (check.kind === 'manual') {
    return check.needs === null ? `manual: ${check.reason}` : `needs ${check.needs}`;
  }
  const where = check.cwd === '.' ? '' : ` (in ${check.cwd})`;
  const file = check.file === null ? '' : `${check.run === '' ? '' : '; '}file ${check.file}`;
  return `${check.run}${file}${where}`;
}

/** A stable key of a check's definition: the same check run on the base tree once is not run again. */
export function checkKey(check: CommandCheck): string {
  return JSON.stringify([
    check.run,
    check.cwd,
    check.timeoutS,
    check.exit,
    check.stdout,
    check.file,
    check.sha256,
    check.contains,
  ]);
}

/** The reason inside an item's `[unverifiable here: …]` marker, or null when it has none. */
function markerReason(item: string): string | null {
  const match = UNVERIFIABLE_MARKER.exec(item);
  if (match === null) return null;
  const rest = item.slice(match.index + match[0].length);
  const reason =
    /^[^\]】]*/
      .exec(rest)?.[0]
      .replace(/^\s*(?:here)?\s*[:：]?\s*/i, '')
      .trim() ?? '';
  return reason === '' ? 'another environment' : reason;
}

function relativeProblem(key: string, path: string): string | null {
  const normal = normalize(path);
  if (isAbsolute(path) || normal === '..' || normal.startsWith(`..${sep}`)) {
    return `"${key}" must stay inside the workspace (a relative path without ..): got ${path}`;
  }
  return null;
}

function wholeNumber(value: string | undefined, fallback: number): number | null {
  if (value === undefined) return fallback;
  return /^\d+$/.test(value) ? Number(value) : null;
}
