import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';

import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.js';
import { checkWrites, runWriters } from '../../test/support/multi-writer.js';
import type { StoredRows } from '../../test/support/multi-writer.js';

const WRITERS = 8;
const BATCHES = 40;

let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  await server.stop();
});

describe('PgSessionStore across processes', () => {
  test(
    'eight processes appending to one server at once lose and duplicate nothing',
    { timeout: 90_000 },
    async () => {
      const url = await server.createDatabase('writers');
      // Every writer opens a fresh database: the schema's creation races too.
      await runWriters(`${url}?schema=shared`, WRITERS, BATCHES);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const stored: StoredRows = {
        entries: async (storeKey) =>
          (
            await client.query<{ seq: string; uid: string | null; payload: string }>(
              'SELECT seq, uid, payload FROM shared.entries WHERE store_key = $1 ORDER BY seq',
              [storeKey],
            )
          ).rows.map((row) => ({ ...row, seq: Number(row.seq) })),
        nextSeq: async (storeKey) =>
          Number(
            (
              await client.query<{ next_seq: string }>(
                'SELECT next_seq FROM shared.meta WHERE store_key = $1',
                [storeKey],
              )
            ).rows[0]?.next_seq,
          ),
        summaries: async () =>
          (await client.query<{ data: string }>('SELECT data FROM shared.summaries')).rows.map(
            (row) => row.data,
          ),
      };
      try {
        await checkWrites(stored, WRITERS, BATCHES);
      } finally {
        await client.end();
      }
    },
  );
});
