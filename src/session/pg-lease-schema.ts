/**
 * The run leases' table in a PostgreSQL store's schema (docs/scaling.md), created on first use beside the
 * session store's tables.
 *
 * @module
 */
import type { ClientBase } from 'pg';

import { quotedName } from './pg-driver.js';
import { SCHEMA_LOCK } from './pg-schema.js';

/**
 * The DDL in `schema`. One row per (run name, lease name): several runs share a server, and one run has a
 * lease per thing driven (`go`, `run:<target>`). `since` and `beat` are the server's own timestamps
 * (`clock_timestamp()` when written), so a holder's age is measured on one clock whatever the hosts'
 * clocks say (docs/decisions.md D436).
 */
export function pgLeaseStatements(schema: string): string[] {
  const name = quotedName(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${name}`,
    `CREATE TABLE IF NOT EXISTS ${name}.flower_leases (
    run     TEXT COLLATE "C" NOT NULL,
    lease   TEXT COLLATE "C" NOT NULL,
    host    TEXT NOT NULL,
    pid     INTEGER NOT NULL,
    started TEXT,
    token   TEXT NOT NULL,
    since   TIMESTAMPTZ NOT NULL,
    beat    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run, lease)
)`,
  ];
}

/**
 * Creates the schema and the table unless they exist, in one transaction under the same advisory lock as
 * the session store's tables: `CREATE … IF NOT EXISTS` is not safe against a concurrent identical statement,
 * and a lease and a session store (on any host) may create the same schema at once.
 */
export async function preparePgLeaseSchema(client: ClientBase, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    for (const statement of pgLeaseStatements(schema)) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
