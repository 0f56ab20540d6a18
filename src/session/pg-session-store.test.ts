import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import {
  SECRET_PASSWORD,
  SECRET_USER,
  startPostgres,
  type PostgresServer,
} from '../../test/support/postgres-server.js';
import type { SessionStoreEntry } from '../agent/claude-sdk.js';
import { FlowerError } from '../errors.js';
import { layeredStore } from './layered-store.js';
import { PgSessionStore } from './pg-session-store.js';
import type { StoreLayer } from './store-layer.js';

let server: PostgresServer;
let database: string;

beforeAll(async () => {
  server = await startPostgres();
  database = await server.createDatabase('store');
}, 60_000);

afterAll(async () => {
  await server.stop();
});

const key = { projectKey: '-ws', sessionId: 's1' };

function transcript(count: number): SessionStoreEntry[] {
  return Array.from({ length: count }, (_, index) => ({ type: 'user', uuid: `u${index}`, index }));
}

describe('PgSessionStore', () => {
  test('creates the reference tables and the partial unique index in the schema it is given', async () => {
    const store = new PgSessionStore(`${database}?schema=team_a`);
    await store.append(key, [{ type: 'x' }]);
    await store.close();
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      const columns = await client.query<{ table_name: string; column_name: string; data_type: string }>(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
         WHERE table_schema = 'team_a' ORDER BY table_name, ordinal_position`,
      );
      expect(columns.rows.map((row) => `${row.table_name}.${row.column_name} ${row.data_type}`)).toEqual([
        'entries.store_key text',
        'entries.seq bigint',
        'entries.uid text',
        'entries.payload text',
        'meta.store_key text',
        'meta.mtime bigint',
        'meta.next_seq bigint',
        'summaries.project_key text',
        'summaries.session_id text',
        'summaries.mtime bigint',
        'summaries.data text',
      ]);
      const index = await client.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = 'team_a' AND indexname = 'entries_uid'`,
      );
      expect(index.rows[0]?.indexdef).toMatch(
        /UNIQUE INDEX entries_uid .*\(store_key, uid\) WHERE \(uid IS NOT NULL\)/,
      );
    } finally {
      await client.end();
    }
  });

  test('keeps schemas apart', async () => {
    const first = new PgSessionStore(database, { schema: 'apart_1' });
    const second = new PgSessionStore(database, { schema: 'apart_2' });
    try {
      await first.append(key, [{ type: 'x', uuid: 'a' }]);
      expect(await second.load(key)).toBeNull();
      await second.append(key, [{ type: 'x', uuid: 'a' }]);
      expect(await first.load(key)).toEqual([{ type: 'x', uuid: 'a' }]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('loads page by page from one snapshot, and a whole load equals the pages joined', async () => {
    const store = new PgSessionStore(database, { schema: 'pages', pageSize: 7 });
    try {
      const entries = transcript(30);
      await store.append(key, entries);
      const pages: number[] = [];
      for await (const page of store.loadPages(key)) {
        pages.push(page.length);
        // A write between pages is not seen by this load: one snapshot.
        if (pages.length === 1) await store.append(key, [{ type: 'late', uuid: 'late' }]);
      }
      expect(pages).toEqual([7, 7, 7, 7, 2]);
      expect(await store.load(key)).toEqual([...entries, { type: 'late', uuid: 'late' }]);
      // Leaving early releases the connection: the store goes on working with its one connection.
      const single = new PgSessionStore(database, { schema: 'pages', pageSize: 7, maxConnections: 1 });
      for await (const page of single.loadPages(key)) if (page.length > 0) break;
      expect(await single.load(key)).toHaveLength(31);
      await single.close();
    } finally {
      await store.close();
    }
  });

  test('carries the load layers unchanged through layeredStore()', async () => {
    const base = new PgSessionStore(database, { schema: 'layered' });
    const seen: number[] = [];
    const tagging: StoreLayer = {
      name: 'tag',
      keepsPositions: true,
      apply(entries, context) {
        seen.push(context.stored.length);
        return { entries: entries.map((entry) => ({ ...entry, tagged: true })), report: { expired: 1 } };
      },
    };
    const store = layeredStore(base, [tagging]);
    try {
      await store.append(key, transcript(2));
      expect(await store.load(key)).toEqual(transcript(2).map((entry) => ({ ...entry, tagged: true })));
      expect(seen).toEqual([2]);
      expect(store.reportFor(key)?.expired).toBe(1);
      expect(await base.load(key)).toEqual(transcript(2));
      expect(store.location).toBe(base.location);
    } finally {
      await store.close();
    }
  });

  test('never shows the password of a location it cannot use', async () => {
    const wrong = `postgres://${SECRET_USER}:not-${SECRET_PASSWORD}@127.0.0.1:${server.port}/store`;
    const store = new PgSessionStore(wrong);
    expect(store.location).not.toContain(SECRET_PASSWORD);
    const failure = await store.load(key).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FlowerError);
    expect(String((failure as Error).message)).toMatch(/cannot be used .*password authentication failed/);
    expect(String((failure as Error).message)).toContain(`${SECRET_USER}:***@127.0.0.1`);
    expect(String((failure as Error).message)).not.toContain(SECRET_PASSWORD);
    await store.close();
    // The right password works, and the store still only shows the redacted location.
    const right = new PgSessionStore(
      `postgres://${SECRET_USER}:${SECRET_PASSWORD}@127.0.0.1:${server.port}/store`,
    );
    await right.append(key, [{ type: 'x' }]);
    expect(right.location).not.toContain(SECRET_PASSWORD);
    await right.close();
  });

  test('names an unreachable server in one line', async () => {
    const store = new PgSessionStore('postgres://nobody:pw@127.0.0.1:1/none');
    await expect(store.append(key, [{ type: 'x' }])).rejects.toThrow(
      /PostgreSQL session store postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none cannot be used/,
    );
    await store.close();
  });

  test('advances mtime past a stored mtime from a host whose clock runs ahead', async () => {
    const store = new PgSessionStore(database, { schema: 'clock' });
    try {
      await store.append(key, [{ type: 'x', uuid: '1' }]);
      const ahead = Date.now() + 3_600_000;
      const client = new pg.Client({ connectionString: database });
      await client.connect();
      await client.query('UPDATE clock.meta SET mtime = $1', [ahead]);
      await client.end();
      await store.append(key, [{ type: 'x', uuid: '2' }]);
      expect((await store.listSessions(key.projectKey))[0]?.mtime).toBe(ahead + 1);
    } finally {
      await store.close();
    }
  });
});
