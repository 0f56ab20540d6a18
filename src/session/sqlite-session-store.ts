/**
 * `SqliteSessionStore`: the SDK's session-store protocol on one SQLite file (`<runDir>/sessions.db`), in the
 * Python flower's schema, safe for several processes at once.
 *
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type { SessionKey, SessionStoreEntry, SessionSummaryEntry } from '../agent/claude-sdk.js';
import { MtimeClock, appendBatch } from './append-batch.js';
import type { AppendContext } from './append-batch.js';
import { newestContext } from './context-tokens.js';
import { deleteTranscript } from './delete-transcript.js';
import type { FlowerSessionStore } from './flower-session-store.js';
import type { LoadReport } from './load-report.js';
import { rekeyProject } from './rekey-project.js';
import { SchemaMismatchError, missingSchemaParts, prepareWritableDatabase } from './schema.js';
import { SessionSummaries } from './session-summaries.js';
import { openSqlite } from './sqlite-driver.js';
import { DEFAULT_BUSY_TIMEOUT_MS, DEFAULT_CONTEXT_SCAN } from './sqlite-session-store-options.js';
import type { SqliteSessionStoreOptions } from './sqlite-session-store-options.js';
import type { SqliteConnection } from './sqlite-driver.js';
import { explainStoreError, parseStoredEntry } from './store-errors.js';
import { checkedProjectKey, childRange, sessionPrefix, storeKey } from './store-key.js';
import { StatementCache } from './store-queries.js';
import type { TranscriptSnapshotSource } from './transcript-snapshot.js';

export { DEFAULT_BUSY_TIMEOUT_MS, DEFAULT_CONTEXT_SCAN } from './sqlite-session-store-options.js';
export type { SqliteSessionStoreOptions } from './sqlite-session-store-options.js';

/**
 * A {@link FlowerSessionStore} on better-sqlite3, in the reference schema (docs/session-stores.md).
 *
 * Behaviour, per SDK call:
 * - `append` runs in one `BEGIN IMMEDIATE` transaction: entries whose `uuid` is already stored for the key, or
 *   seen earlier in the batch, are skipped (the SDK retries failed batches); entries without a `uuid` are
 *   always kept. Survivors get consecutive `seq` numbers; `meta.mtime` advances (epoch ms, strictly
 *   increasing); for a main transcript the summary row is folded with the SDK's `foldSessionSummary` in the
 *   same transaction. A batch with no survivors changes nothing.
 * - `load` returns fresh objects parsed from the stored JSON, in `seq` order, or `null` for an unknown key.
 * - `delete` of a main key also removes its summary and every subagent transcript under it.
 *
 * The file is in WAL mode with a busy timeout, so parallel runs can share it; `close()` checkpoints so the
 * `.db` file alone is complete afterwards (decisions.md D31).
 *
 * **Layers.** The load pipeline rewrites what the model sees on resume without touching what is stored. Its
 * layers are values (`expireLayer`, `trimLayer`, …) that `layeredStore(base, layers)` runs over any base
 * store, this one included; `TrimmingSessionStore` and `PruningSessionStore` are presets that run them from
 * {@link SqliteSessionStore.transform}. `load()` calls {@link SqliteSessionStore.loadRaw} and then
 * `transform(key, entries)`, which a subclass may override (calling `super.transform` first), returning new
 * arrays and objects rather than mutating its input.
 */
export class SqliteSessionStore implements FlowerSessionStore, TranscriptSnapshotSource {
  /** Absolute path of the database file. */
  readonly path: string;
  /** True when opened with `readonly`. */
  readonly readonly: boolean;

  #connection: SqliteConnection | null = null;
  /** Opens the file: set until the first open (`openOnFirstUse`), then null. */
  #opener: (() => SqliteConnection) | null;
  readonly #statements = new StatementCache(() => this.#open());
  readonly #summaries: SessionSummaries;
  readonly #appending: AppendContext;

  /**
   * Opens (and, unless `readonly`, creates) the database at `path`, or with `openOnFirstUse` only remembers
   * to. A missing parent folder is created.
   *
   * @throws FlowerError when the file is damaged, is not a SQLite database, is some other program's
   *   database, or (read-only) does not exist; or when the SQLite driver cannot be loaded. The file is never
   *   modified or replaced in those cases. With `openOnFirstUse` the first call that opens it throws these.
   */
  constructor(path: string, options: SqliteSessionStoreOptions = {}) {
    this.path = resolve(path);
    this.readonly = options.readonly ?? false;
    this.#summaries = new SessionSummaries(this.#statements, this.path);
    this.#appending = { statements: this.#statements, summaries: this.#summaries, clock: new MtimeClock() };
    this.#opener = () => {
      if (!this.readonly) mkdirSync(dirname(this.path), { recursive: true });
      const connection = openSqlite(this.path, {
        readonly: this.readonly,
        busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
        inMemoryCopy: options.inMemoryCopy ?? false,
      });
      try {
        if (!this.readonly) prepareWritableDatabase(connection);
        const missing = missingSchemaParts(connection);
        if (missing.length > 0) throw new SchemaMismatchError(missing);
      } catch (error) {
        connection.close();
        throw explainStoreError(this.path, error);
      }
      return connection;
    };
    if (options.openOnFirstUse !== true) this.open();
  }

  /**
   * Opens the file now if it waits for its first use (`openOnFirstUse`); nothing when open or closed. A
   * failed open throws, and the next call tries again.
   *
   * @throws FlowerError as the constructor.
   */
  open(): void {
    if (this.#opener === null) return;
    this.#connection = this.#opener();
    this.#opener = null;
  }

  // ---- SDK SessionStore protocol ------------------------------------------------------------------------

  /* eslint-disable @typescript-eslint/require-await -- the protocol is async, and `async` turns an error thrown by the synchronous driver into a rejected promise, as callers of the protocol expect */

  /** Stores a batch of transcript entries (see the class description for de-duplication and summaries). */
  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    this.#guard(() => appendBatch(this.#writable(), this.#appending, key, entries));
  }

  /**
   * The transcript at `key` as the model should see it on resume: {@link SqliteSessionStore.loadRaw} passed
   * through {@link SqliteSessionStore.transform}. `null` when nothing was ever stored under `key`.
   */
  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    const entries = this.#guard(() => this.loadRaw(key));
    if (entries === null) return null;
    return await this.transform(key, entries);
  }

  /** Main transcripts of a project with their storage mtime (epoch ms). Order unspecified. */
  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    return this.#guard(() => {
      const { low, high } = childRange(checkedProjectKey(projectKey));
      const rows = this.#statements.get('metaTimesInRange').all(low, high) as Array<{
        store_key: string;
        mtime: number;
      }>;
      const sessions: Array<{ sessionId: string; mtime: number }> = [];
      for (const row of rows) {
        const sessionId = row.store_key.slice(low.length);
        if (!sessionId.includes('/')) sessions.push({ sessionId, mtime: row.mtime });
      }
      return sessions;
    });
  }

  /**
   * The summary of every main transcript of a project. A row written by the Python flower (its own summary
   * shape) is rebuilt once by folding the stored transcript, and rewritten unless the store is read-only.
   */
  async listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]> {
    return this.#guard(() => {
      checkedProjectKey(projectKey);
      return this.#summaries.list(projectKey, this.readonly ? null : this.#writable());
    });
  }

  /**
   * Deletes the transcript at `key`. For a main key this cascades to its summary and to every subagent
   * transcript of the session, so no orphans remain.
   */
  async delete(key: SessionKey): Promise<void> {
    this.#guard(() => {
      const connection = this.#writable();
      this.#summaries.forget();
      connection.immediate(() => deleteTranscript(this.#statements, key));
    });
  }

  /** The subpaths (`subagents/agent-<id>`, …) stored under a session, sorted. */
  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return this.#guard(() => {
      const { low, high } = childRange(sessionPrefix(key.projectKey, key.sessionId));
      const rows = this.#statements.get('metaKeysInRange').all(low, high) as Array<{ store_key: string }>;
      return rows.map((row) => row.store_key.slice(low.length));
    });
  }

  /* eslint-enable @typescript-eslint/require-await */

  // ---- flower's own synchronous queries -----------------------------------------------------------------

  /** True when the main transcript `projectKey/sessionId` exists (one index lookup). */
  hasSession(projectKey: string, sessionId: string): boolean {
    return this.#guard(
      () => this.#statements.get('hasMeta').get(sessionPrefix(projectKey, sessionId)) !== undefined,
    );
  }

  /**
   * Context size in tokens of the newest of the main transcript's last `scan` entries whose `message.usage`
   * adds up to more than zero (`input + cache_read + cache_creation`: input alone is near 0 on cache hits).
   * 0 when unknown. Unparsable rows and rows without usage are skipped.
   */
  lastContext(projectKey: string, sessionId: string, scan: number = DEFAULT_CONTEXT_SCAN): number {
    return this.#guard(() => newestContext(this.#statements, sessionPrefix(projectKey, sessionId), scan));
  }

  /** Every project key with at least one stored transcript, sorted. */
  projects(): string[] {
    return this.#guard(() => {
      const rows = this.#statements.get('projects').all() as Array<{ project: string }>;
      return rows.map((row) => row.project);
    });
  }

  /** Always `null`: the base store returns transcripts as stored. Rewriting subclasses override this. */
  reportFor(_key: SessionKey): LoadReport | null {
    return null;
  }

  /**
   * Moves every session of `fromProjectKey` to `toProjectKey` in one transaction: main and subagent
   * transcripts keep their entries, `seq` and mtime; summaries move with them. A session whose id already has
   * anything under the target key is skipped (never merged), so nothing is lost either way.
   *
   * @returns the number of sessions moved.
   */
  rekey(fromProjectKey: string, toProjectKey: string): number {
    return this.#guard(() => {
      const connection = this.#writable();
      checkedProjectKey(fromProjectKey);
      checkedProjectKey(toProjectKey);
      if (fromProjectKey === toProjectKey) return 0;
      this.#summaries.forget();
      return connection.immediate(() => rekeyProject(this.#statements, fromProjectKey, toProjectKey));
    });
  }

  /**
   * Folds the write-ahead log into the database file and truncates it (`PRAGMA wal_checkpoint(TRUNCATE)`).
   * A reader in another process can keep part of the log alive; that is not an error. No-op when read-only.
   */
  checkpoint(): void {
    // Never opened: nothing to fold, and a checkpoint must not create the file.
    if (this.#opener !== null) return;
    this.#guard(() => {
      const connection = this.#open();
      if (!connection.readonly) connection.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    });
  }

  /**
   * Writes a consistent copy of the whole store to a new SQLite file at `destination` (SQLite's online
   * backup: the write-ahead log is included, other processes may go on writing meanwhile). What
   * `flower export` packs; see {@link TranscriptSnapshotSource}.
   */
  async snapshotTo(destination: string): Promise<void> {
    await this.#open().backup(destination);
  }

  /** Checkpoints (decisions.md D31) and closes. Idempotent. */
  close(): void {
    // Never opened: nothing to fold, and closing must not create the file.
    this.#opener = null;
    const connection = this.#connection;
    if (connection === null) return;
    try {
      if (!connection.readonly) {
        // No `PRAGMA optimize` here: it adds sqlite_stat tables, and the schema stays the reference's.
        connection.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
      }
    } finally {
      this.#connection = null;
      this.#statements.clear();
      this.#summaries.forget();
      connection.close();
    }
  }

  // ---- subclass seam ------------------------------------------------------------------------------------

  /**
   * The transcript at `key` exactly as stored (fresh objects, `seq` order), or `null` when the key has no
   * entries. Synchronous, for layers and tools that need the original.
   *
   * @throws FlowerError when a stored row is not valid JSON.
   */
  protected loadRaw(key: SessionKey): SessionStoreEntry[] | null {
    const target = storeKey(key);
    const entries: SessionStoreEntry[] = [];
    // Row by row: each payload string can be dropped once parsed, so a load never holds every stored string
    // and every parsed entry at once.
    for (const row of this.#statements.get('entriesOf').iterate(target)) {
      const { seq, payload } = row as { seq: number; payload: string };
      entries.push(parseStoredEntry(this.path, target, seq, payload));
    }
    return entries.length === 0 ? null : entries;
  }

  /**
   * Rewrites a loaded transcript before the SDK sees it. The base store returns `entries` unchanged.
   * Overrides must not mutate `entries` or its objects (copy on write) and must leave storage alone.
   */
  protected transform(
    _key: SessionKey,
    entries: SessionStoreEntry[],
  ): SessionStoreEntry[] | Promise<SessionStoreEntry[]> {
    return entries;
  }

  // ---- internals ----------------------------------------------------------------------------------------

  #open(): SqliteConnection {
    this.open();
    if (this.#connection === null) throw new Error(`The session store ${this.path} is closed.`);
    return this.#connection;
  }

  #writable(): SqliteConnection {
    const connection = this.#open();
    if (connection.readonly) {
      throw new Error(`The session store ${this.path} was opened read-only; it cannot be changed.`);
    }
    return connection;
  }

  /** Runs `work`, turning "this file is damaged / not a database" into one clear message. */
  #guard<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw explainStoreError(this.path, error);
    }
  }
}
