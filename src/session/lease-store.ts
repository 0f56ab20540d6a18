/**
 * Where a run's lease is kept (docs/scaling.md): a row per run, naming the one process allowed to drive it.
 * The SQLite default keeps it in `sessions.db` ({@link SqliteLeaseStore}); a server-backed store keeps it
 * beside its transcripts, so processes on several hosts see the same row.
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
 * Lease rows. Each method is atomic against every other process using the same store. Implementations throw
 * on storage errors (a caller treats a failed renewal as "not renewed").
 */
export interface LeaseStore {
  /**
   * Takes the lease of `run` for `self` unless `isLive(current)` says its current holder (another token)
   * is alive: then nothing changes and that holder is returned. Check and take happen in one transaction.
   */
  acquire(run: string, self: LeaseHolder, isLive: (holder: LeaseHolder) => boolean): LeaseHolder | null;
  /** Sets `beat` of the row when it still names `token`; false when another holder has the row (or none). */
  renew(run: string, token: string, beat: number): boolean;
  /** Deletes the row when it names `token`. */
  release(run: string, token: string): void;
  /** The row of `run`, or null. */
  current(run: string): LeaseHolder | null;
  close(): void;
}
