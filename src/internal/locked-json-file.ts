/**
 * One JSON file shared by several processes: the run manifest and `lineage.json`
 * (decisions.md D5, D308, D309). Every change runs under a lock file, re-reads the file, merges through a
 * callback and writes a temporary file that is renamed into place, so a reader never sees half a file and no
 * writer erases what another one added. A file that cannot be parsed is renamed aside (quarantined), never
 * overwritten.
 *
 * Synchronous on purpose: the manifest is written from signal handlers, where awaiting is not possible.
 * This is the only lock implementation in flower; it is not part of the public API.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage } from './error-text.js';

/** A lock older than this is taken over: its owner died without removing it (docs/continuity.md). */
export const DEFAULT_STALE_MS = 30_000;
/**
 * After waiting this long for a live lock, the change goes ahead unlocked rather than being lost. A writer
 * holds the lock for one read, one write and one fsync (milliseconds); the wait runs out only when the
 * holder is frozen or the machine is starved, and 2 s ran out on a 2-core machine under 30 busy processes,
 * where the unlocked writes then lost rows — so the wait is long, and still well under the stale limit.
 */
export const DEFAULT_WAIT_MS = 10_000;

/** Lock timing; defaults {@link DEFAULT_STALE_MS} and {@link DEFAULT_WAIT_MS}. */
export interface LockTiming {
  staleMs?: number;
  waitMs?: number;
}

/** What is on disk: nothing, a value that parsed and has the expected shape, or something unusable. */
export type JsonFileState =
  { kind: 'missing' } | { kind: 'parsed'; value: unknown } | { kind: 'unreadable'; reason: string };

/** How a {@link LockedJsonFile} judges and writes its content. */
export interface LockedJsonFileOptions extends LockTiming {
  /** The expected shape; a file that parses but fails this check counts as unreadable. Default: any JSON. */
  accepts?: (value: unknown) => boolean;
}

/** What {@link LockedJsonFile.update} did. */
export interface UpdateOutcome<T> {
  /** The value written, or `undefined` when the callback chose not to write. */
  written: T | undefined;
  /** Where an unreadable file was moved before the callback ran, and why it was unreadable; or `null`. */
  quarantined: { path: string; reason: string } | null;
  /** False when the lock wait ran out and the change went ahead unlocked. */
  locked: boolean;
}

/** A JSON file changed only under its lock (`<path>.lock`), atomically, with unreadable content set aside. */
export class LockedJsonFile {
  /** The JSON file. */
  readonly path: string;
  readonly #accepts: (value: unknown) => boolean;
  readonly #staleMs: number;
  readonly #waitMs: number;

  constructor(path: string, options: LockedJsonFileOptions = {}) {
    this.path = path;
    this.#accepts = options.accepts ?? (() => true);
    this.#staleMs = options.staleMs ?? DEFAULT_STALE_MS;
    this.#waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  }

  /** Reads the file without locking or changing anything (a rename-based writer never leaves half a file). */
  read(): JsonFileState {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      return { kind: 'unreadable', reason: errorMessage(error) };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { kind: 'unreadable', reason: errorMessage(error) };
    }
    return this.#accepts(value)
      ? { kind: 'parsed', value }
      : { kind: 'unreadable', reason: 'unexpected JSON shape' };
  }

  /**
   * Under the lock: re-reads the file (a cached copy would erase a parallel writer's changes), moves an
   * unreadable one to `<path>.corrupt-<tag>` (`-2`, `-3`… when taken), passes the current value (`undefined`
   * when missing or quarantined) to `change`, and writes what it returns through a temporary file and a
   * rename. Returning `undefined` writes nothing. The folder is created when missing.
   *
   * @param tag names the quarantine copy; the caller's run id, so the copy says who set it aside.
   * @throws the file-system error of a failed write or quarantine (the file itself is then unchanged).
   */
  update<T>(tag: string, change: (current: unknown) => T | undefined): UpdateOutcome<T> {
    mkdirSync(dirname(this.path), { recursive: true });
    return this.withLock((locked) => {
      const state = this.read();
      const quarantined =
        state.kind === 'unreadable' ? { path: this.quarantine(tag), reason: state.reason } : null;
      const written = change(state.kind === 'parsed' ? state.value : undefined);
      if (written !== undefined) this.#write(written, locked, tag);
      return { written, quarantined, locked };
    });
  }

  /**
   * Runs `work` holding `<path>.lock`: created with O_EXCL; one older than the stale limit is taken over;
   * after the wait limit `work` runs anyway (told `locked = false`), because losing a record is worse than a
   * rare race. The lock is removed afterwards only if it is still this call's own.
   */
  withLock<T>(work: (locked: boolean) => T): T {
    const lock = acquireLock(`${this.path}.lock`, this.#staleMs, this.#waitMs);
    try {
      return work(lock !== null);
    } finally {
      if (lock !== null) releaseLock(lock);
    }
  }

  /** Renames the file to `<path>.corrupt-<tag>` (or `…-2`, `-3`…) and returns the new path. */
  quarantine(tag: string): string {
    return moveAside(this.path, `corrupt-${tag}`);
  }

  #write(value: unknown, locked: boolean, tag: string): void {
    // Unlocked writers (lock wait exceeded) get a temporary file of their own so two never share one.
    const temporary = locked ? `${this.path}.tmp` : `${this.path}.tmp-${tag}-${process.pid}`;
    try {
      writeDurably(temporary, `${JSON.stringify(value, null, 2)}\n`);
      renameSync(temporary, this.path);
    } catch (error) {
      // A failed write leaves the old file as it was and no half-written temporary beside it; the caller
      // records the failure (the runtime tells the person its record is incomplete).
      try {
        unlinkSync(temporary);
      } catch {
        // Nothing was created, or something that is not ours is in the way: leave it.
      }
      throw error;
    }
  }
}

/**
 * Renames `path` to `<path>.<suffix>`, or `<path>.<suffix>-2`, `-3`… when that exists, and returns the new
 * path. Used for quarantine and for setting aside a file that belongs to someone else: never overwrites.
 */
export function moveAside(path: string, suffix: string): string {
  let target = `${path}.${suffix}`;
  for (let counter = 2; existsSync(target); counter++) target = `${path}.${suffix}-${counter}`;
  renameSync(path, target);
  return target;
}

// The temporary file reaches the disk before the rename, so a power loss leaves the old or the new file.
function writeDurably(path: string, text: string): void {
  const descriptor = openSync(path, 'w', 0o644);
  try {
    writeSync(descriptor, text);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

interface HeldLock {
  path: string;
  token: string;
}

function acquireLock(path: string, staleMs: number, waitMs: number): HeldLock | null {
  const token = `${process.pid} ${randomBytes(6).toString('hex')}\n`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const descriptor = openSync(path, 'wx', 0o600);
      try {
        writeSync(descriptor, token);
      } finally {
        closeSync(descriptor);
      }
      return { path, token };
    } catch (error) {
      // Anything but "someone holds it" (a read-only folder, say) means locking is impossible here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
    }
    if (isStale(path, staleMs)) {
      try {
        unlinkSync(path);
      } catch {
        // Another writer took it over first; try again.
      }
      continue;
    }
    if (Date.now() >= deadline) return null;
    sleepSync(2 + Math.random() * 4);
  }
}

function isStale(path: string, staleMs: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

function releaseLock(lock: HeldLock): void {
  try {
    // Our lock may have been taken over as stale after a very long pause; then it is someone else's now.
    if (readFileSync(lock.path, 'utf8') === lock.token) unlinkSync(lock.path);
  } catch {
    // Already gone: nothing to release.
  }
}

function sleepSync(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}
