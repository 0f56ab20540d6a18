import { afterAll, beforeAll } from 'vitest';

import { PgSessionStore } from '../../src/session/pg-session-store.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { runSessionStoreSuite } from '../../src/testing/index.js';

let server: PostgresServer;
let database: string;
let count = 0;

beforeAll(async () => {
  server = await startPostgres();
  database = await server.createDatabase('conformance');
}, 60_000);

afterAll(async () => {
  await server.stop();
});

// A fresh schema per test (created by the store on first use), in this file's own database.
runSessionStoreSuite(
  'PgSessionStore',
  () => {
    count += 1;
    return new PgSessionStore(database, { schema: `conformance_${count}`, maxConnections: 2 });
  },
  { dispose: (store) => (store as PgSessionStore).close() },
);
