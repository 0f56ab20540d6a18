/**
 * The SQL `SqliteSessionStore` runs, in one place, and the per-connection cache of its prepared statements.
 * Every statement a store call runs is compiled once per connection and reused: compiling costs more than a
 * small append's inserts.
 *
 * @module
 */
import type { SqliteConnection, SqliteStatement } from './sqlite-driver.js';

/** Every statement the session store runs, by purpose. Parameters are positional (`?`). */
export const QUERIES = {
  /** Changes whenever another connection commits; our own commits leave it alone (SQLite docs). */
  dataVersion: 'PRAGMA data_version',
  metaOf: 'SELECT mtime, next_seq FROM meta WHERE store_key = ?',
  hasMeta: 'SELECT 1 FROM meta WHERE store_key = ?',
  hasMetaInRange: 'SELECT 1 FROM meta WHERE store_key >= ? AND store_key < ? LIMIT 1',
  metaKeysInRange: 'SELECT store_key FROM meta WHERE store_key >= ? AND store_key < ? ORDER BY store_key',
  metaTimesInRange:
    'SELECT store_key, mtime FROM meta WHERE store_key >= ? AND store_key < ? ORDER BY store_key',
  projects: `SELECT DISTINCT substr(store_key, 1, instr(store_key, '/') - 1) AS project
           FROM meta WHERE instr(store_key, '/') > 1 ORDER BY project`,
  writeMeta: `INSERT INTO meta (store_key, mtime, next_seq) VALUES (?, ?, ?)
           ON CONFLICT(store_key) DO UPDATE SET mtime = excluded.mtime, next_seq = excluded.next_seq`,
  /**
   * Inserts one entry unless its `uid` is already stored for the key (the SDK retries batches; a uuid repeated
   * within a batch keeps its first occurrence): `changes` is 0 for a skipped duplicate. The conflict target
   * is the partial unique index only, so a clash on `(store_key, seq)` still fails loudly.
   */
  insertEntry: `INSERT INTO entries (store_key, seq, uid, payload) VALUES (?, ?, ?, ?)
           ON CONFLICT(store_key, uid) WHERE uid IS NOT NULL DO NOTHING`,
  maxSeq: 'SELECT max(seq) AS top FROM entries WHERE store_key = ?',
  entriesOf: 'SELECT seq, payload FROM entries WHERE store_key = ? ORDER BY seq',
  entriesBefore: 'SELECT seq, payload FROM entries WHERE store_key = ? AND seq < ? ORDER BY seq',
  newestPayloads: 'SELECT payload FROM entries WHERE store_key = ? ORDER BY seq DESC LIMIT ?',
  summaryOf: 'SELECT mtime, data FROM summaries WHERE project_key = ? AND session_id = ?',
  hasSummary: 'SELECT 1 FROM summaries WHERE project_key = ? AND session_id = ?',
  summariesOf: 'SELECT session_id, mtime, data FROM summaries WHERE project_key = ? ORDER BY session_id',
  writeSummary: `INSERT INTO summaries (project_key, session_id, mtime, data) VALUES (?, ?, ?, ?)
         ON CONFLICT(project_key, session_id) DO UPDATE SET mtime = excluded.mtime, data = excluded.data`,
  deleteEntries: 'DELETE FROM entries WHERE store_key = ?',
  deleteMeta: 'DELETE FROM meta WHERE store_key = ?',
  deleteEntriesInRange: 'DELETE FROM entries WHERE store_key >= ? AND store_key < ?',
  deleteMetaInRange: 'DELETE FROM meta WHERE store_key >= ? AND store_key < ?',
  deleteSummary: 'DELETE FROM summaries WHERE project_key = ? AND session_id = ?',
  moveEntries: 'UPDATE entries SET store_key = ? WHERE store_key = ?',
  moveMeta: 'UPDATE meta SET store_key = ? WHERE store_key = ?',
  moveSummary: 'UPDATE summaries SET project_key = ? WHERE project_key = ? AND session_id = ?',
} as const;

/** The name of one of {@link QUERIES}. */
export type QueryName = keyof typeof QUERIES;

/** Prepared statements of one connection, compiled on first use. */
export class StatementCache {
  readonly #statements = new Map<QueryName, SqliteStatement>();
  readonly #connection: () => SqliteConnection;

  /** @param connection returns the open connection, or throws when the store is closed. */
  constructor(connection: () => SqliteConnection) {
    this.#connection = connection;
  }

  /** The prepared statement for `name`. */
  get(name: QueryName): SqliteStatement {
    let statement = this.#statements.get(name);
    if (statement === undefined) {
      statement = this.#connection().prepare(QUERIES[name]);
      this.#statements.set(name, statement);
    }
    return statement;
  }

  /** Forgets every statement (the connection is closing). */
  clear(): void {
    this.#statements.clear();
  }
}
