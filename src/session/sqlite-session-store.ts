/**
 * `SqliteSessionStore`: the SDK's session-store protocol on one SQLite file (`<runDir>/sessions.db`), in the
 * Python flower's schema, safe for several processes at once.
 *
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { foldSessionSummary } from '../agent/claude-sdk.js';
import type { SessionKey, SessionStoreEntry, SessionSummaryEntry } from '../agent/claude-sdk.js';
import { FlowerError } from '../errors.js';
import type { FlowerSessionStore } from './flower-session-store.js';
import type { LoadReport } from './load-report.js';
import { SchemaMismatchError, missingSchemaParts, prepareWritableDatabase } from './schema.js';
import { isUnreadableDatabaseError, openSqlite } from './sqlite-driver.js';
import type { SqliteConnection, SqliteStatement } from './sqlite-driver.js';
import { checkedProjectKey, childRange, isMainKey, sessionPrefix, storeKey } from './store-key.js';

/** Options for {@link SqliteSessionStore}. */
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
}

/** The default busy timeout, in milliseconds. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** The number of newest main-transcript entries {@link SqliteSessionStore.lastContext} looks at by default. */
export const DEFAULT_CONTEXT_SCAN = 60;

interface MetaRow {
  mtime: number;
  next_seq: number;
}

interface SummaryRow {
  mtime: number;
  data: string;
}

/**
 * A {@link FlowerSessionStore} on better-sqlite3, in the reference schema (context-and-stores.md §5).
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
 * `.db` file alone is complete afterwards (decision 31).
 *
 * **Subclassing.** The load pipeline (`TrimmingSessionStore`, `PruningSessionStore`) rewrites what the model
 * sees on resume without touching what is stored. `load()` calls {@link SqliteSessionStore.loadRaw} and then
 * {@link SqliteSessionStore.transform}; a layer overrides `transform(key, entries)` (calling
 * `super.transform` first to stack layers), returns new arrays and objects rather than mutating its input,
 * and overrides {@link SqliteSessionStore.reportFor} to expose what it did per key.
 */
export class SqliteSessionStore implements FlowerSessionStore {
  /** Absolute path of the database file. */
  readonly path: string;
  /** True when opened with `readonly`. */
  readonly readonly: boolean;

  #connection: SqliteConnection | null;
  readonly #statements = new Map<string, SqliteStatement>();
  /** The last mtime this instance issued, so two appends in one millisecond still get increasing times. */
  #lastMtime = 0;

  /**
   * Opens (and, unless `readonly`, creates) the database at `path`. A missing parent folder is created.
   *
   * @throws FlowerError when the file is damaged, is not a SQLite database, is some other program's
   *   database, or (read-only) does not exist; or when the SQLite driver cannot be loaded. The file is never
   *   modified or replaced in those cases.
   */
  constructor(path: string, options: SqliteSessionStoreOptions = {}) {
    this.path = resolve(path);
    this.readonly = options.readonly ?? false;
    if (!this.readonly) mkdirSync(dirname(this.path), { recursive: true });
    const connection = openSqlite(this.path, {
      readonly: this.readonly,
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    });
    try {
      if (!this.readonly) prepareWritableDatabase(connection);
      const missing = missingSchemaParts(connection);
      if (missing.length > 0) throw new SchemaMismatchError(missing);
    } catch (error) {
      connection.close();
      throw this.#explain(error);
    }
    this.#connection = connection;
  }

  // ---- SDK SessionStore protocol ------------------------------------------------------------------------

  /** Stores a batch of transcript entries (see the class description for de-duplication and summaries). */
  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    this.#guard(() => this.#append(key, entries));
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
      const rows = this.#statement(
        'SELECT store_key, mtime FROM meta WHERE store_key >= ? AND store_key < ? ORDER BY store_key',
      ).all(low, high) as Array<{ store_key: string; mtime: number }>;
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
      const rows = this.#statement(
        'SELECT session_id, mtime, data FROM summaries WHERE project_key = ? ORDER BY session_id',
      ).all(projectKey) as Array<SummaryRow & { session_id: string }>;
      return rows.flatMap((row) => {
        const decoded = decodeSummary(row);
        if (decoded !== null) return [decoded];
        const key = { projectKey, sessionId: row.session_id };
        if (this.readonly) return [this.#foldStored(key, Number.MAX_SAFE_INTEGER, row.mtime)];
        // Re-read under the write lock: another process may have rebuilt, updated or deleted it meanwhile.
        return this.#writable().immediate(() => {
          const current = this.#summaryRow(key);
          if (current === undefined) return [];
          const now = decodeSummary({ ...current, session_id: key.sessionId });
          if (now !== null) return [now];
          const rebuilt = this.#foldStored(key, Number.MAX_SAFE_INTEGER, current.mtime);
          this.#writeSummary(key, rebuilt);
          return [rebuilt];
        });
      });
    });
  }

  /**
   * Deletes the transcript at `key`. For a main key this cascades to its summary and to every subagent
   * transcript of the session, so no orphans remain.
   */
  async delete(key: SessionKey): Promise<void> {
    this.#guard(() => {
      const connection = this.#writable();
      const target = storeKey(key);
      connection.immediate(() => {
        this.#statement('DELETE FROM entries WHERE store_key = ?').run(target);
        this.#statement('DELETE FROM meta WHERE store_key = ?').run(target);
        if (!isMainKey(key)) return;
        const { low, high } = childRange(target);
        this.#statement('DELETE FROM entries WHERE store_key >= ? AND store_key < ?').run(low, high);
        this.#statement('DELETE FROM meta WHERE store_key >= ? AND store_key < ?').run(low, high);
        this.#statement('DELETE FROM summaries WHERE project_key = ? AND session_id = ?').run(
          key.projectKey,
          key.sessionId,
        );
      });
    });
  }

  /** The subpaths (`subagents/agent-<id>`, …) stored under a session, sorted. */
  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return this.#guard(() => {
      const { low, high } = childRange(sessionPrefix(key.projectKey, key.sessionId));
      const rows = this.#statement(
        'SELECT store_key FROM meta WHERE store_key >= ? AND store_key < ? ORDER BY store_key',
      ).all(low, high) as Array<{ store_key: string }>;
      return rows.map((row) => row.store_key.slice(low.length));
    });
  }

  // ---- flower's own synchronous queries -----------------------------------------------------------------

  /** True when the main transcript `projectKey/sessionId` exists (one index lookup). */
  hasSession(projectKey: string, sessionId: string): boolean {
    return this.#guard(
      () =>
        this.#statement('SELECT 1 FROM meta WHERE store_key = ?').get(
          sessionPrefix(projectKey, sessionId),
        ) !== undefined,
    );
  }

  /**
   * Context size in tokens of the newest of the main transcript's last `scan` entries whose `message.usage`
   * adds up to more than zero (`input + cache_read + cache_creation`: input alone is near 0 on cache hits).
   * 0 when unknown. Unparsable rows and rows without usage are skipped.
   */
  lastContext(projectKey: string, sessionId: string, scan: number = DEFAULT_CONTEXT_SCAN): number {
    return this.#guard(() => {
      const rows = this.#statement(
        'SELECT payload FROM entries WHERE store_key = ? ORDER BY seq DESC LIMIT ?',
      ).all(sessionPrefix(projectKey, sessionId), Math.max(0, Math.floor(scan))) as Array<{
        payload: string;
      }>;
      for (const row of rows) {
        const tokens = contextTokens(row.payload);
        if (tokens > 0) return tokens;
      }
      return 0;
    });
  }

  /** Every project key with at least one stored transcript, sorted. */
  projects(): string[] {
    return this.#guard(() => {
      const rows = this.#statement(
        `SELECT DISTINCT substr(store_key, 1, instr(store_key, '/') - 1) AS project
           FROM meta WHERE instr(store_key, '/') > 1 ORDER BY project`,
      ).all() as Array<{ project: string }>;
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
      return connection.immediate(() => {
        const { low, high } = childRange(fromProjectKey);
        const keys = (
          this.#statement('SELECT store_key FROM meta WHERE store_key >= ? AND store_key < ?').all(
            low,
            high,
          ) as Array<{ store_key: string }>
        ).map((row) => row.store_key);
        const bySession = new Map<string, string[]>();
        for (const key of keys) {
          const sessionId = key.slice(low.length).split('/')[0] ?? '';
          bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), key]);
        }
        let moved = 0;
        for (const [sessionId, sessionKeys] of bySession) {
          if (this.#sessionExists(toProjectKey, sessionId)) continue;
          for (const key of sessionKeys) {
            const target = toProjectKey + key.slice(fromProjectKey.length);
            this.#statement('UPDATE entries SET store_key = ? WHERE store_key = ?').run(target, key);
            this.#statement('UPDATE meta SET store_key = ? WHERE store_key = ?').run(target, key);
          }
          this.#statement(
            'UPDATE summaries SET project_key = ? WHERE project_key = ? AND session_id = ?',
          ).run(toProjectKey, fromProjectKey, sessionId);
          moved += 1;
        }
        return moved;
      });
    });
  }

  /**
   * Folds the write-ahead log into the database file and truncates it (`PRAGMA wal_checkpoint(TRUNCATE)`).
   * A reader in another process can keep part of the log alive; that is not an error. No-op when read-only.
   */
  checkpoint(): void {
    this.#guard(() => {
      const connection = this.#open();
      if (!connection.readonly) connection.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    });
  }

  /** Checkpoints (decision 31) and closes. Idempotent. */
  close(): void {
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
    const rows = this.#statement('SELECT seq, payload FROM entries WHERE store_key = ? ORDER BY seq').all(
      target,
    ) as Array<{ seq: number; payload: string }>;
    if (rows.length === 0) return null;
    return rows.map((row) => this.#parse(target, row.seq, row.payload));
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

  #append(key: SessionKey, entries: readonly SessionStoreEntry[]): void {
    const connection = this.#writable();
    const target = storeKey(key);
    if (entries.length === 0) return;
    // Serialise before taking the write lock: it keeps the transaction short, and what is stored is fixed at
    // call time even if the caller later mutates its objects.
    const rows = entries.map((entry) => ({ uid: uidOf(entry), payload: JSON.stringify(entry) }));
    connection.immediate(() => {
      const meta = this.#statement('SELECT mtime, next_seq FROM meta WHERE store_key = ?').get(target) as
        MetaRow | undefined;
      const firstSeq = meta?.next_seq ?? this.#nextSeqWithoutMeta(target);
      const exists = this.#statement('SELECT 1 FROM entries WHERE store_key = ? AND uid = ?');
      const insert = this.#statement(
        'INSERT INTO entries (store_key, seq, uid, payload) VALUES (?, ?, ?, ?)',
      );
      const kept: SessionStoreEntry[] = [];
      let seq = firstSeq;
      rows.forEach((row, index) => {
        // The lookup also sees rows inserted earlier in this transaction: a uuid repeated within the batch
        // keeps its first occurrence.
        if (row.uid !== null && exists.get(target, row.uid) !== undefined) return;
        insert.run(target, seq, row.uid, row.payload);
        seq += 1;
        kept.push(entries[index]!);
      });
      // A pure replay (the SDK retrying a batch that did land) must not advance mtime or re-fold the summary.
      if (kept.length === 0) return;
      const now = this.#nextMtime(meta?.mtime ?? 0);
      this.#statement(
        `INSERT INTO meta (store_key, mtime, next_seq) VALUES (?, ?, ?)
           ON CONFLICT(store_key) DO UPDATE SET mtime = excluded.mtime, next_seq = excluded.next_seq`,
      ).run(target, now, seq);
      if (!isMainKey(key)) return;
      const previous = this.#previousSummary(key, firstSeq);
      this.#writeSummary(key, foldSessionSummary(previous, key, kept, { mtime: now }));
    });
  }

  /** The summary before this batch; rebuilt from the stored transcript when absent or Python-written. */
  #previousSummary(key: SessionKey, firstSeq: number): SessionSummaryEntry | undefined {
    const row = this.#summaryRow(key);
    const decoded = row === undefined ? null : decodeSummary({ ...row, session_id: key.sessionId });
    if (decoded !== null) return decoded;
    if (firstSeq === 0 && row === undefined) return undefined;
    return this.#foldStored(key, firstSeq, row?.mtime ?? 0);
  }

  #summaryRow(key: SessionKey): SummaryRow | undefined {
    return this.#statement('SELECT mtime, data FROM summaries WHERE project_key = ? AND session_id = ?').get(
      key.projectKey,
      key.sessionId,
    ) as SummaryRow | undefined;
  }

  /** Folds the stored main transcript (entries with `seq < beforeSeq`) into a fresh summary. */
  #foldStored(key: SessionKey, beforeSeq: number, mtime: number): SessionSummaryEntry {
    const target = storeKey(key);
    const rows = this.#statement(
      'SELECT seq, payload FROM entries WHERE store_key = ? AND seq < ? ORDER BY seq',
    ).all(target, beforeSeq) as Array<{ seq: number; payload: string }>;
    const entries = rows.map((row) => this.#parse(target, row.seq, row.payload));
    return foldSessionSummary(undefined, { projectKey: key.projectKey, sessionId: key.sessionId }, entries, {
      mtime,
    });
  }

  #writeSummary(key: SessionKey, summary: SessionSummaryEntry): void {
    this.#statement(
      `INSERT INTO summaries (project_key, session_id, mtime, data) VALUES (?, ?, ?, ?)
         ON CONFLICT(project_key, session_id) DO UPDATE SET mtime = excluded.mtime, data = excluded.data`,
    ).run(key.projectKey, key.sessionId, summary.mtime, JSON.stringify(summary));
  }

  /** For a key with entries but no meta row (never written by flower; tolerated): one past the highest seq. */
  #nextSeqWithoutMeta(target: string): number {
    const row = this.#statement('SELECT max(seq) AS top FROM entries WHERE store_key = ?').get(target) as {
      top: number | null;
    };
    return row.top === null ? 0 : row.top + 1;
  }

  /** Storage time for a write: now, but strictly after both this key's stored mtime and our last one. */
  #nextMtime(storedMtime: number): number {
    const now = Math.max(Date.now(), storedMtime + 1, this.#lastMtime + 1);
    this.#lastMtime = now;
    return now;
  }

  #sessionExists(projectKey: string, sessionId: string): boolean {
    const main = sessionPrefix(projectKey, sessionId);
    const { low, high } = childRange(main);
    return (
      this.#statement('SELECT 1 FROM meta WHERE store_key = ?').get(main) !== undefined ||
      this.#statement('SELECT 1 FROM meta WHERE store_key >= ? AND store_key < ? LIMIT 1').get(low, high) !==
        undefined ||
      this.#statement('SELECT 1 FROM summaries WHERE project_key = ? AND session_id = ?').get(
        projectKey,
        sessionId,
      ) !== undefined
    );
  }

  #parse(target: string, seq: number, payload: string): SessionStoreEntry {
    try {
      return JSON.parse(payload) as SessionStoreEntry;
    } catch (error) {
      throw new FlowerError(
        'STORE_UNREADABLE',
        `${this.path}: the stored entry ${target} #${seq} is not valid JSON, so this transcript cannot be ` +
          'loaded. The file was left untouched; restore it from a copy or start a new session.',
        { cause: error },
      );
    }
  }

  #statement(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#open().prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #open(): SqliteConnection {
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
      throw this.#explain(error);
    }
  }

  #explain(error: unknown): unknown {
    if (error instanceof SchemaMismatchError) {
      return new FlowerError(
        'STORE_UNREADABLE',
        `${this.path} is a SQLite database but not a flower session store (it ${error.message}). ` +
          'It was left untouched: point flower at another run directory.',
        { cause: error },
      );
    }
    if (!isUnreadableDatabaseError(error)) return error;
    return new FlowerError(
      'STORE_UNREADABLE',
      `${this.path} cannot be read as a session store (${(error as Error).message}). ` +
        'It was left untouched: move it aside (with any -wal and -shm files beside it) to start with an empty ' +
        'store, or restore it from a copy.',
      { cause: error },
    );
  }
}

/** The de-duplication key of an entry: its `uuid` when it is a non-empty string (as the reference). */
function uidOf(entry: SessionStoreEntry): string | null {
  return typeof entry.uuid === 'string' && entry.uuid !== '' ? entry.uuid : null;
}

/**
 * A summary row as written by this store (the TS `SessionSummaryEntry` JSON), or `null` for anything else
 * (the Python flower's shape with `session_id`, or damage), which the caller rebuilds from the transcript.
 */
function decodeSummary(row: SummaryRow & { session_id: string }): SessionSummaryEntry | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.data);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { sessionId, data } = parsed as { sessionId?: unknown; data?: unknown };
  if (typeof sessionId !== 'string' || typeof data !== 'object' || data === null || Array.isArray(data))
    return null;
  return { sessionId: row.session_id, mtime: row.mtime, data: data as Record<string, unknown> };
}

/** `input + cache_read + cache_creation` of `message.usage` in one stored payload; 0 when absent or bad. */
function contextTokens(payload: string): number {
  let entry: unknown;
  try {
    entry = JSON.parse(payload);
  } catch {
    return 0;
  }
  const usage = (entry as { message?: { usage?: Record<string, unknown> } } | null)?.message?.usage;
  if (typeof usage !== 'object' || usage === null) return 0;
  const count = (name: string): number => {
    const value = usage[name];
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
  };
  return count('input_tokens') + count('cache_read_input_tokens') + count('cache_creation_input_tokens');
}
