import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, test } from 'vitest';

import { checkWrites, runWriters } from '../../test/support/multi-writer.js';
import type { StoredRows } from '../../test/support/multi-writer.js';

const WRITERS = 8;
const BATCHES = 40;

describe('SqliteSessionStore across processes', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'flower-store-processes-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  test(
    'eight processes appending to one file at once lose and duplicate nothing',
    { timeout: 90_000 },
    async () => {
      const path = join(directory, 'sessions.db');
      await runWriters(path, WRITERS, BATCHES);
      const database = new Database(path, { readonly: true });
      const stored: StoredRows = {
        entries: (storeKey) =>
          Promise.resolve(
            database
              .prepare('SELECT seq, uid, payload FROM entries WHERE store_key = ? ORDER BY seq')
              .all(storeKey) as Array<{ seq: number; uid: string | null; payload: string }>,
          ),
        nextSeq: (storeKey) =>
          Promise.resolve(
            (
              database.prepare('SELECT next_seq FROM meta WHERE store_key = ?').get(storeKey) as {
                next_seq: number;
              }
            ).next_seq,
          ),
        summaries: () =>
          Promise.resolve(
            (database.prepare('SELECT data FROM summaries').all() as Array<{ data: string }>).map(
              (row) => row.data,
            ),
          ),
      };
      try {
        await checkWrites(stored, WRITERS, BATCHES);
      } finally {
        database.close();
      }
    },
  );
});
