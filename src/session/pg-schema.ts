/**
 * The reference session-store schema (see `schema.ts`) translated to PostgreSQL, created on first use in a
 * schema the user names.
 *
 * @module
 */
import type { ClientBase } from 'pg';

import { quotedName } from './pg-driver.js';

/** The schema flower uses when the store location names none. */
export const DEFAULT_PG_SCHEMA = 'flower';

/**
 * A name PostgreSQL takes unquoted without folding it: lower-case letters, digits and `_`, at most 63 bytes.
 * Refusing everything else keeps the name the user typed and the name in the catalogue the same.
 */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** True when `name` can be a flower schema name (see {@link SCHEMA_NAME}). */
export function isValidSchemaName(name: string): boolean {
  return SCHEMA_NAME.test(name);
}

/**
 * The DDL in `schema`, one statement per object in the reference's order. Types, and why:
 * - `payload TEXT`, not `jsonb`: jsonb reorders keys and rejects the `\u0000` escape, and the store must
 *   hand back what it was given; TEXT keeps the JSON string byte for byte, as SQLite does.
 * - `seq`, `mtime`, `next_seq` `BIGINT`: SQLite's INTEGER is 64-bit; epoch milliseconds overflow `integer`.
 * - `entries_uid` stays partial (`WHERE uid IS NOT NULL`): uuid-less entries are never de-duplicated.
 * - `COLLATE "C"` on the key columns: byte order, as SQLite compares TEXT, so the prefix ranges of
 *   `childRange()` (`'/'` … `'0'`) select exactly the keys under a project or session whatever the database's
 *   default collation.
 */
export function pgSchemaStatements(schema: string): string[] {
  const name = quotedName(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${name}`,
    `CREATE TABLE IF NOT EXISTS ${name}.entries (
    store_key TEXT COLLATE "C" NOT NULL,
    seq       BIGINT NOT NULL,
    uid       TEXT,
    payload   TEXT NOT NULL,
    PRIMARY KEY (store_key, seq)
)`,
    `CREATE UNIQUE INDEX IF NOT EXISTS entries_uid
    ON ${name}.entries(store_key, uid) WHERE uid IS NOT NULL`,
    `CREATE TABLE IF NOT EXISTS ${name}.meta (
    store_key TEXT COLLATE "C" PRIMARY KEY,
    mtime     BIGINT NOT NULL,
    next_seq  BIGINT NOT NULL
)`,
    `CREATE TABLE IF NOT EXISTS ${name}.summaries (
    project_key TEXT COLLATE "C" NOT NULL,
    session_id  TEXT COLLATE "C" NOT NULL,
    mtime       BIGINT NOT NULL,
    data        TEXT NOT NULL,
    PRIMARY KEY (project_key, session_id)
)`,
  ];
}

/**
 * Advisory lock key held while the schema is created. `CREATE … IF NOT EXISTS` is not safe against a
 * concurrent identical statement (both see "absent", one fails on the catalogue's unique index), and several
 * flower processes on several hosts may open a fresh database at once.
 */
export const SCHEMA_LOCK = 0x464c5752; // "FLWR"

/** Creates the schema and its tables unless they exist, in one transaction under {@link SCHEMA_LOCK}. */
export async function preparePgSchema(client: ClientBase, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    for (const statement of pgSchemaStatements(schema)) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
