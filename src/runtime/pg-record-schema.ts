/**
 * The tables of a run's records in a PostgreSQL store's schema (docs/scaling.md, docs/decisions.md D441),
 * created on first use beside the session store's tables. Every row is scoped by the run's name, because
 * hosts sharing one run have different run directories.
 *
 * - `flower_manifests`: one row per run — the row every manifest change locks (`SELECT … FOR UPDATE` through
 *   an upsert), so changes from any process on any host are serialised per run.
 * - `flower_manifest_rows`: the manifest rows in order. `data` is the row's JSON as TEXT (jsonb would
 *   reorder keys; readers get back exactly what was written, as from `manifest.json`); `run_id` and `step`
 *   are copied out so a person can query the rows in SQL.
 * - `flower_lineage`: the lineage document of a run, JSON as TEXT (locked by its own row).
 *
 * @module
 */
import type { ClientBase } from 'pg';

import { quotedName } from '../session/pg-driver.js';

/** The DDL of the records' tables in `schema`. */
export function pgRecordStatements(schema: string): string[] {
  const name = quotedName(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${name}`,
    `CREATE TABLE IF NOT EXISTS ${name}.flower_manifests (
    run_name   TEXT COLLATE "C" PRIMARY KEY,
    updated_at BIGINT NOT NULL,
    writes     BIGINT NOT NULL
)`,
    `CREATE TABLE IF NOT EXISTS ${name}.flower_manifest_rows (
    run_name TEXT COLLATE "C" NOT NULL REFERENCES ${name}.flower_manifests(run_name) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    run_id   TEXT NOT NULL,
    step     TEXT NOT NULL,
    data     TEXT NOT NULL,
    PRIMARY KEY (run_name, position)
)`,
    `CREATE TABLE IF NOT EXISTS ${name}.flower_lineage (
    run_name   TEXT COLLATE "C" PRIMARY KEY,
    updated_at BIGINT NOT NULL,
    data       TEXT
)`,
  ];
}

/**
 * Advisory lock key held while the tables are created: `CREATE … IF NOT EXISTS` is not safe against a
 * concurrent identical statement, and many processes on many hosts may open a fresh database at once. The
 * session store's key (src/session/pg-schema.ts): both create the schema, so the two must not race either.
 */
const RECORD_SCHEMA_LOCK = 0x464c5752; // "FLWR"

/** Creates the schema and the records' tables unless they exist, in one transaction. */
export async function preparePgRecordSchema(client: ClientBase, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [RECORD_SCHEMA_LOCK]);
    for (const statement of pgRecordStatements(schema)) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
