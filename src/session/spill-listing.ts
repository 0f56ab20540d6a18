/**
 * The names of the files in the spill folder, listed once and reused while the folder has not changed. A
 * resume loads the main transcript and every subagent transcript one after another, and trim asked for a
 * listing of the same folder at each: with thousands of spill files each listing cost several milliseconds
 * of CPU (the system call, a JavaScript string per name, a set built from them), most of a steady trimmed
 * load's extra time after hashing (docs/decisions.md D460).
 *
 * @module
 */
import { readdirSync, statSync, type BigIntStats } from 'node:fs';

/**
 * How long before a listing the folder must have last changed for the listing to be reused. A file system
 * stamps a change with a coarse clock (a kernel tick on Linux, one or two seconds on some), so a change made
 * just after a listing can carry the very timestamp the listing saw; a folder that had been still for longer
 * than that granularity gets a later timestamp from any change after the listing.
 */
const SETTLED_MS = 100;
/** The same for a folder whose timestamp has no fraction of a second: its file system may keep whole seconds. */
const SETTLED_COARSE_MS = 3000;

interface Listing {
  directory: string;
  stamp: string;
  names: ReadonlySet<string>;
}

/** One folder's listing, reused by later loads while the folder's identity and timestamps are unchanged. */
export class SpillListing {
  #last: Listing | null = null;
  readonly #now: () => number;
  readonly #list: (directory: string) => string[];

  /** `now` and `list` are for tests: the clock (milliseconds since the epoch) and the directory read. */
  constructor(options: { now?: () => number; list?: (directory: string) => string[] } = {}) {
    this.#now = options.now ?? Date.now;
    this.#list = options.list ?? ((directory) => readdirSync(directory));
  }

  /**
   * The names of the files in `directory` (which must exist): the last listing when the folder is the one
   * listed then, unchanged since, and had been still for a while before it was listed; else a fresh listing.
   * The set is shared with later calls: a caller keeps what it writes apart (a write that fails must not
   * enter the listing).
   */
  namesIn(directory: string): ReadonlySet<string> {
    const before = statSync(directory, { bigint: true });
    const stamp = stampOf(before);
    const last = this.#last;
    if (last !== null && last.directory === directory && last.stamp === stamp) return last.names;
    const listedAt = this.#now();
    const names = new Set(this.#list(directory));
    // Reuse only a listing that no change can hide behind: taken of a folder that had been still for longer
    // than its clock's granularity (else a change right after the listing could leave the timestamps as
    // they were), and that did not change while it was read.
    const after = stampOf(statSync(directory, { bigint: true }));
    this.#last = after === stamp && settledBefore(before, listedAt) ? { directory, stamp, names } : null;
    return names;
  }
}

/** What changes when a file is added to, renamed in or removed from a folder, or the folder is replaced. */
function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/**
 * True when the folder's contents last changed well before `listedAt`: then any later change stamps a later
 * modification time, which the stamp comparison sees. (Its status-change time is in the stamp too, so a
 * modification time set back by hand is noticed, but it need not be old: touching the folder lists nothing.)
 */
function settledBefore(stats: BigIntStats, listedAt: number): boolean {
  const coarse = stats.mtimeNs % 1_000_000_000n === 0n;
  const changedMs = Number(stats.mtimeNs / 1_000_000n);
  return listedAt - changedMs > (coarse ? SETTLED_COARSE_MS : SETTLED_MS);
}
