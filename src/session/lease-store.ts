/**
 * Where a run's lease is kept (docs/scaling.md): a row per run, naming the one process allowed to drive it.
 * The SQLite default keeps it in `sessions.db` ({@link SqliteLeaseStore}); a server-backed store keeps it
 * beside its transcripts ({@link PgLeaseStore}), so processes on several hosts see the same row.
 *
 * @module
 */

/** The process holding (or asking for) a lease. */
export interface LeaseHolder {
  /** `FLOWER_HOST`, else the host name. */
  host: string;
  pid: number;
  /** The process's start time (from `/proc`), so a reused pid is not mistaken for it; null where unknown. */
  started: string | null;
  /** Random per process: what a renewal and a release must match. */
  token: string;
  /** Epoch milliseconds the lease was taken. */
  since: number;
  /** Epoch milliseconds of the last renewal. */
  beat: number;
}

/**
 * How a lease store answers: at once (`sync`, SQLite) or through a promise (`async`, a database server).
 * `LeaseStore<LeaseAnswers>` is a store of either kind, as a caller that does not know which one it got sees it.
 */
export type LeaseAnswers = 'sync' | 'async';

/** A result of type `T` as a store answering `A` gives it (both kinds: `T | Promise<T>`). */
export type LeaseResult<T, A extends LeaseAnswers> = { sync: T; async: Promise<T> }[A];

/**
 * Lease rows. Each method is atomic against every other process using the same store. Implementations throw
 * (or reject) on storage errors (a caller treats a failed renewal as "not renewed").
 *
 * SQLite answers synchronously and PostgreSQL through promises; `LeaseStore<LeaseAnswers>` is the interface both
 * serve (every result `T | Promise<T>`, awaited by its callers). The bare name stays the synchronous
 * interface, so direct users of the SQLite store do not change (docs/decisions.md D435).
 */
export interface LeaseStore<A extends LeaseAnswers = 'sync'> {
  /**
   * Takes the lease of `run` for `self` unless `isLive(current)` says its current holder (another token)
   * is alive: then nothing changes and that holder is returned. Check and take happen in one transaction.
   */
  acquire(
    run: string,
    self: LeaseHolder,
    isLive: (holder: LeaseHolder) => boolean,
  ): LeaseResult<LeaseHolder | null, A>;
  /** Sets `beat` of the row when it still names `token`; false when another holder has the row (or none). */
  renew(run: string, token: string, beat: number): LeaseResult<boolean, A>;
  /** Deletes the row when it names `token`. */
  release(run: string, token: string): LeaseResult<void, A>;
  /** The row of `run`, or null. */
  current(run: string): LeaseResult<LeaseHolder | null, A>;
  close(): LeaseResult<void, A>;
}

/** True when `value` is a promise (what a result of a store of either kind turned out to be). */
export function isPromiseLike<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
