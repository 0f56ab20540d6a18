/**
 * The SQL `PgSessionStore` runs, by purpose, for one schema. Parameters are numbered (`$1`); every table
 * name is schema-qualified, so no `search_path` is assumed.
 *
 * @module
 */
import { quotedName } from './pg-driver.js';

/** Every statement of the PostgreSQL store, for `schema`. */
export function pgQueries(schema: string) {
  const s = quotedName(schema);
  return {
    /**
     * Serialises every write of one session (main and subagent transcripts, summary) across connections,
     * processes and hosts, until the transaction ends: the role SQLite's single write lock plays. Keyed by
     * schema and session, so other sessions write in parallel.
     */
    lockSession: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
    /**
     * Everything an append reads, in one round trip: the key's meta row, the highest stored `seq` (for a key
     * without meta), which of the batch's uuids ($2) are stored already, and the summary of the session
     * ($3, $4; nulls for a subagent key).
     */
    appendState: `SELECT m.mtime, m.next_seq,
             (SELECT max(seq) FROM ${s}.entries WHERE store_key = $1) AS top,
             ARRAY(SELECT uid FROM ${s}.entries WHERE store_key = $1 AND uid = ANY($2::text[])) AS stored,
             sm.mtime AS summary_mtime, sm.data AS summary_data
           FROM (SELECT 1) AS one
           LEFT JOIN ${s}.meta AS m ON m.store_key = $1
           LEFT JOIN ${s}.summaries AS sm ON sm.project_key = $3 AND sm.session_id = $4`,
    /** Everything an append writes to a subagent transcript, in one round trip: entries and meta. */
    writeBatch: `WITH inserted AS (
             INSERT INTO ${s}.entries (store_key, seq, uid, payload)
             SELECT $1, seq, uid, payload FROM unnest($2::bigint[], $3::text[], $4::text[]) AS t(seq, uid, payload)
           )
           INSERT INTO ${s}.meta (store_key, mtime, next_seq) VALUES ($1, $5, $6)
           ON CONFLICT (store_key) DO UPDATE SET mtime = excluded.mtime, next_seq = excluded.next_seq`,
    /** {@link writeBatch} plus the main transcript's summary ($7 project, $8 session, $9 data). */
    writeMainBatch: `WITH inserted AS (
             INSERT INTO ${s}.entries (store_key, seq, uid, payload)
             SELECT $1, seq, uid, payload FROM unnest($2::bigint[], $3::text[], $4::text[]) AS t(seq, uid, payload)
           ), written AS (
             INSERT INTO ${s}.meta (store_key, mtime, next_seq) VALUES ($1, $5, $6)
             ON CONFLICT (store_key) DO UPDATE SET mtime = excluded.mtime, next_seq = excluded.next_seq
           )
           INSERT INTO ${s}.summaries (project_key, session_id, mtime, data) VALUES ($7, $8, $5, $9)
           ON CONFLICT (project_key, session_id) DO UPDATE SET mtime = excluded.mtime, data = excluded.data`,
    /** One page of a transcript after `seq` $2 (keyset paging on the primary key). */
    entriesAfter: `SELECT seq, payload FROM ${s}.entries WHERE store_key = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    entriesBefore: `SELECT seq, payload FROM ${s}.entries WHERE store_key = $1 AND seq < $2 ORDER BY seq`,
    metaTimesInRange: `SELECT store_key, mtime FROM ${s}.meta WHERE store_key >= $1 AND store_key < $2 ORDER BY store_key`,
    metaKeysInRange: `SELECT store_key FROM ${s}.meta WHERE store_key >= $1 AND store_key < $2 ORDER BY store_key`,
    summariesOf: `SELECT session_id, mtime, data FROM ${s}.summaries WHERE project_key = $1 ORDER BY session_id`,
    deleteEntries: `DELETE FROM ${s}.entries WHERE store_key = $1`,
    deleteMeta: `DELETE FROM ${s}.meta WHERE store_key = $1`,
    deleteEntriesInRange: `DELETE FROM ${s}.entries WHERE store_key >= $1 AND store_key < $2`,
    deleteMetaInRange: `DELETE FROM ${s}.meta WHERE store_key >= $1 AND store_key < $2`,
    deleteSummary: `DELETE FROM ${s}.summaries WHERE project_key = $1 AND session_id = $2`,
  } as const;
}

/** The statements of one schema. */
export type PgQueries = ReturnType<typeof pgQueries>;
