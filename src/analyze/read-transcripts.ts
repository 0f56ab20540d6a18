/**
 * Reads every transcript of a `sessions.db`, read-only: the file is opened as an in-memory copy when it was
 * closed cleanly, so looking leaves no `-wal`/`-shm` file behind, and nothing is ever written.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { openSqlite } from '../session/sqlite-driver.js';
import { TranscriptCollector, type TranscriptStats } from './transcript-stats.js';

/**
 * The figures of every transcript in the store at `path`, in store-key order; `[]` when the file is absent.
 * A payload that is not JSON is skipped.
 */
export function readTranscripts(path: string): TranscriptStats[] {
  if (!existsSync(path)) return [];
  const connection = openSqlite(path, { readonly: true, inMemoryCopy: true });
  try {
    const rows = connection
      .prepare('SELECT store_key, payload FROM entries ORDER BY store_key, seq')
      .iterate() as IterableIterator<{ store_key: string; payload: string }>;
    const transcripts: TranscriptStats[] = [];
    let current: TranscriptCollector | null = null;
    for (const row of rows) {
      if (current === null || current.stats.key !== row.store_key) {
        current = new TranscriptCollector(row.store_key);
        transcripts.push(current.stats);
      }
      let entry: unknown;
      try {
        entry = JSON.parse(row.payload);
      } catch {
        continue;
      }
      current.add(entry);
    }
    return transcripts;
  } finally {
    connection.close();
  }
}

/**
 * The figures of transcripts read elsewhere (a PostgreSQL store), each with its store key and its entries
 * in `seq` order: the same figures {@link readTranscripts} gives for a `sessions.db`.
 */
export function transcriptStats(
  transcripts: ReadonlyArray<{ key: string; entries: readonly unknown[] }>,
): TranscriptStats[] {
  return transcripts.map((transcript) => {
    const collector = new TranscriptCollector(transcript.key);
    for (const entry of transcript.entries) collector.add(entry);
    return collector.stats;
  });
}
