/**
 * The tool journal's rows of some sessions on a PostgreSQL store, read without changing anything: what
 * `flower doctor` checks against the transcripts of a run on a server, as it reads `sessions.db`'s table.
 *
 * @module
 */
import { FlowerError } from '../errors.js';
import { loadPg, quotedName } from './pg-driver.js';
import { parsePgLocation } from './pg-location.js';

/** One journalled call, as the doctor reads it. */
export interface JournalCallRow {
  sessionId: string;
  toolUseId: string;
  toolName: string;
}

/**
 * The journalled calls of `sessionIds` in the store at `location` (schema `schema`), oldest first; none when
 * the schema has no journal table yet.
 *
 * @throws FlowerError (`STORE_UNREADABLE`) naming the redacted location when the server cannot be read.
 */
export async function readPgJournalRows(
  location: string,
  schema: string,
  sessionIds: readonly string[],
): Promise<JournalCallRow[]> {
  const parsed = parsePgLocation(location);
  if (sessionIds.length === 0) return [];
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: parsed.connectionString });
  // A connection the server drops must not crash the process; the query reports the failure.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const table = `${quotedName(schema)}.tool_calls`;
    const exists = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [table]);
    if (exists.rows[0]?.found === null) return [];
    const { rows } = await client.query<{ session_id: string; tool_use_id: string; tool_name: string }>(
      `SELECT session_id, tool_use_id, tool_name FROM ${table} WHERE session_id = ANY($1::text[]) ` +
        'ORDER BY started_at, id',
      [sessionIds],
    );
    return rows.map((row) => ({
      sessionId: row.session_id,
      toolUseId: row.tool_use_id,
      toolName: row.tool_name,
    }));
  } catch (error) {
    if (error instanceof FlowerError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new FlowerError(
      'STORE_UNREADABLE',
      `The tool journal in the PostgreSQL store ${parsed.redacted} cannot be read (${reason}).`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
