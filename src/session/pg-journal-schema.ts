/**
 * The tool journal's table on PostgreSQL (`tool_calls`, beside the transcripts in the store's schema), created
 * on first use. The SQLite journal's table (`tool-journal.ts`) translated: one row per call the gate let
 * through; `agent_id` null for the main thread; `started_at` epoch milliseconds; `id` keeps insertion order
 * for calls let through in the same millisecond (SQLite's `rowid` plays that part there).
 *
 * @module
 */
import type { ClientBase } from 'pg';

import { quotedName } from './pg-driver.js';
import { SCHEMA_LOCK } from './pg-schema.js';

/** The journal's DDL in `schema`. */
export function pgJournalStatements(schema: string): string[] {
  const name = quotedName(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${name}`,
    `CREATE TABLE IF NOT EXISTS ${name}.tool_calls (
    session_id  TEXT COLLATE "C" NOT NULL,
    tool_use_id TEXT COLLATE "C" NOT NULL,
    agent_id    TEXT,
    tool_name   TEXT NOT NULL,
    input       TEXT NOT NULL,
    started_at  BIGINT NOT NULL,
    id          BIGSERIAL,
    PRIMARY KEY (session_id, tool_use_id)
)`,
  ];
}

/**
 * Creates the journal's table unless it exists, under the same advisory lock as the transcript tables: two
 * processes opening a fresh database at once must not both create the schema.
 */
export async function preparePgJournal(client: ClientBase, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    for (const statement of pgJournalStatements(schema)) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
