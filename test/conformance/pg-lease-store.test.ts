import { afterAll, beforeAll } from 'vitest';

import { leaseStoreFor } from '../../src/runtime/lease-store-for.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { runLeaseStoreSuite } from '../support/lease-store-conformance.js';

let server: PostgresServer;
let database: string;
let count = 0;

beforeAll(async () => {
  server = await startPostgres();
  database = await server.createDatabase('leases');
}, 60_000);

afterAll(async () => {
  await server.stop();
});

// A fresh schema per test (created by the store on first use); every store opened in a test has its own
// pool, as processes on different hosts would.
runLeaseStoreSuite('PgLeaseStore', {
  fresh: () => {
    count += 1;
  },
  open: () =>
    leaseStoreFor('/nonexistent-run-dir', { location: database, schema: `leases_${count}`, run: 'r' }),
});
