/**
 * Options and defaults of `SqliteSessionStore`.
 *
 * @module
 */

/** Options for `SqliteSessionStore`. */
export interface SqliteSessionStoreOptions {
  /**
   * How long a write waits for another process holding the database lock before it fails (the SDK then
   * retries the batch). Default 5000 ms.
   */
  busyTimeoutMs?: number;
  /**
   * Open for reading only (`flower analyze`, dashboards): the file must exist, nothing is created or
   * converted, and `append`, `delete` and `rekey` throw.
   */
  readonly?: boolean;
  /**
   * With `readonly`, for a one-off look (the wake banner): when no `-wal` file is beside the database (it was
   * closed cleanly, so the file alone is complete), read an in-memory copy of it. A read-only SQLite reader
   * of a WAL database otherwise creates `-wal` and `-shm` files and cannot remove them. Writes made after
   * the open are not seen.
   */
  inMemoryCopy?: boolean;
  /**
   * Open the file on the first call that needs it (or on `open()`) instead of in the constructor, so a
   * command can start its agent before it pays for the driver and the file (docs/decisions.md D228). The
   * errors the constructor would throw then come from that call. Default false.
   */
  openOnFirstUse?: boolean;
}

/** The default busy timeout, in milliseconds. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** The number of newest main-transcript entries `SqliteSessionStore.lastContext` looks at by default. */
export const DEFAULT_CONTEXT_SCAN = 60;
