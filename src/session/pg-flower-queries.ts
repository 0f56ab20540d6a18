/**
 * The SQL behind `PgSessionStore`'s answers to flower's own questions (the `FlowerSessionStore` extras:
 * `hasSession`, `lastContext`, `projects`, `rekey`), for one schema. Kept apart from `pg-queries.ts`, which
 * holds the SDK protocol's statements.
 *
 * @module
 */
import { quotedName } from './pg-driver.js';

/** Every statement of the extras, for `schema`. */
export function pgFlowerQueries(schema: string) {
  const s = quotedName(schema);
  return {
    hasMeta: `SELECT 1 FROM ${s}.meta WHERE store_key = $1`,
    hasMetaInRange: `SELECT 1 FROM ${s}.meta WHERE store_key >= $1 AND store_key < $2 LIMIT 1`,
    hasSummary: `SELECT 1 FROM ${s}.summaries WHERE project_key = $1 AND session_id = $2`,
    /** The newest `$2` payloads of a transcript, newest first. */
    newestPayloads: `SELECT payload FROM ${s}.entries WHERE store_key = $1 ORDER BY seq DESC LIMIT $2`,
    /** Every project key: the part of each key before its first `/`. */
    projects: `SELECT DISTINCT split_part(store_key, '/', 1) AS project FROM ${s}.meta
           WHERE position('/' in store_key) > 1 ORDER BY project`,
    metaKeysInRange: `SELECT store_key FROM ${s}.meta WHERE store_key >= $1 AND store_key < $2 ORDER BY store_key`,
    moveEntries: `UPDATE ${s}.entries SET store_key = $1 WHERE store_key = $2`,
    moveMeta: `UPDATE ${s}.meta SET store_key = $1 WHERE store_key = $2`,
    moveSummary: `UPDATE ${s}.summaries SET project_key = $1 WHERE project_key = $2 AND session_id = $3`,
    /** Serialises re-keys of one project across processes and hosts until the transaction ends. */
    lockProject: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
  } as const satisfies Record<string, string>;
}

/** The statements of one schema. */
export type PgFlowerQueries = ReturnType<typeof pgFlowerQueries>;
