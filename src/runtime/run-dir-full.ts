/**
 * A run directory whose file system is full (docs/decisions.md D341): a write there that found no space
 * stops the run before its next turn, as a lost lease does, instead of running on with nothing recorded.
 *
 * @module
 */
import { FlowerError } from '../errors.js';

/** Error codes of a write that found no space: the file system's, a quota's, and SQLite's. */
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** True when `error` (or its cause) is a write that found no space left on the device. */
export function isNoSpaceError(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current !== null && typeof current === 'object' && depth < 5;
    depth++
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NO_SPACE_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The one line of a run stopped by a full run directory: what happened and what to do. */
export function runDirFullText(runDir: string): string {
  return (
    `The run directory ${runDir} is full (no space left on device), so flower stopped before its next ` +
    'turn; free some space there and run the same command again to go on.'
  );
}

/**
 * Whether a write found the run directory full, and the stop that follows: the first write that found no
 * space — a manifest write, a transcript append, a tool journal row, whichever comes first
 * (docs/decisions.md D350) — sets the `RUN_DIR_FULL` error and calls `stop` with it, once.
 */
export class RunDirFull {
  readonly #runDir: string;
  readonly #stop: (error: FlowerError) => void;
  #error: FlowerError | null = null;

  constructor(runDir: string, stop: (error: FlowerError) => void) {
    this.#runDir = runDir;
    this.#stop = stop;
  }

  /** The `RUN_DIR_FULL` error once a write found no space; null until then. */
  get error(): FlowerError | null {
    return this.#error;
  }

  /** Hears a failed write: the first that found no space stops the run; any other changes nothing. */
  note(error: unknown): void {
    if (this.#error !== null || !isNoSpaceError(error)) return;
    this.#error = new FlowerError('RUN_DIR_FULL', runDirFullText(this.#runDir), { cause: error });
    this.#stop(this.#error);
  }
}
