/**
 * The cost breakdown of a run directory, read from its files alone: every transcript of `sessions.db` and
 * the manifest's rows (which session ran which step). Read-only like `flower status`: the store is opened as
 * an in-memory copy, so looking leaves no `-wal`/`-shm` file behind.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../session/sqlite-driver.js';
import {
  costBreakdown,
  type CostBreakdown,
  type CostBreakdownOptions,
  type CostTranscript,
} from './cost-breakdown.js';
import { readManifest, type ManifestRow } from './manifest.js';

/** The session store's file name in a run directory. */
const SESSIONS_FILE = 'sessions.db';

/** The transcripts of the store at `path`, in store-key and `seq` order; [] when absent. Unparseable payloads are skipped. */
export function readCostTranscripts(path: string): CostTranscript[] {
  if (!existsSync(path)) return [];
  const connection = openSqlite(path, { readonly: true, inMemoryCopy: true });
  try {
    const rows = connection
      .prepare('SELECT store_key, payload FROM entries ORDER BY store_key, seq')
      .iterate() as IterableIterator<{ store_key: string; payload: string }>;
    const transcripts: Array<{ key: string; entries: unknown[] }> = [];
    let current: { key: string; entries: unknown[] } | null = null;
    for (const row of rows) {
      if (current === null || current.key !== row.store_key) {
        current = { key: row.store_key, entries: [] };
        transcripts.push(current);
      }
      try {
        current.entries.push(JSON.parse(row.payload));
      } catch {
        // A payload that is not JSON holds no usage to price.
      }
    }
    return transcripts;
  } finally {
    connection.close();
  }
}

/**
 * Where the run in `runDir` spent its money (see {@link costBreakdown}); null when it has no session store
 * or the store cannot be read.
 */
export function runCostBreakdown(
  runDir: string,
  options: CostBreakdownOptions & {
    rows?: readonly ManifestRow[];
    /** The transcripts read from where they live (a PostgreSQL store) instead of `sessions.db`. */
    transcripts?: readonly CostTranscript[];
  } = {},
): CostBreakdown | null {
  const path = join(runDir, SESSIONS_FILE);
  if (options.transcripts === undefined && !existsSync(path)) return null;
  try {
    // The rows from where the run's records live (PostgreSQL), else manifest.json.
    const steps = (options.rows ?? readManifest(runDir)).map((row) => ({
      step: row.step,
      sessionIds: [
        ...(Array.isArray(row.retired) ? row.retired : []),
        ...(typeof row.session_id === 'string' ? [row.session_id] : []),
      ],
    }));
    return costBreakdown(options.transcripts ?? readCostTranscripts(path), steps, options);
  } catch {
    return null;
  }
}
