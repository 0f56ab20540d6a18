/**
 * Every row of a SQLite store's tool journal, read without changing the file: what `flower export --to`
 * copies into a server along with the transcripts.
 *
 * @module
 */
import { openSqlite } from './sqlite-driver.js';
import type { JournalledCall } from './tool-journal.js';

/** The journal's calls in `path`, oldest first; none when the file has no journal table. */
export function readJournalRows(path: string): JournalledCall[] {
  const connection = openSqlite(path, { readonly: true, inMemoryCopy: true });
  try {
    const table = connection
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tool_calls'")
      .get();
    if (table === undefined) return [];
    const rows = connection
      .prepare(
        'SELECT session_id, tool_use_id, agent_id, tool_name, input, started_at FROM tool_calls ' +
          'ORDER BY started_at, rowid',
      )
      .all() as Array<{
      session_id: string;
      tool_use_id: string;
      agent_id: string | null;
      tool_name: string;
      input: string;
      started_at: number;
    }>;
    return rows.flatMap((row) => {
      let input: unknown;
      try {
        input = JSON.parse(row.input);
      } catch {
        return [];
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
      return [
        {
          sessionId: row.session_id,
          toolUseId: row.tool_use_id,
          agentId: row.agent_id,
          toolName: row.tool_name,
          input: input as Record<string, unknown>,
          startedAt: row.started_at,
        },
      ];
    });
  } finally {
    connection.close();
  }
}
