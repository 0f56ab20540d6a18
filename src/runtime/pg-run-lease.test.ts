import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { holderNamed } from '../../test/support/lease-store-conformance.js';
import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.js';
import { leaseSettings } from '../config/lease-settings.js';
import { RunLease } from './run-lease.js';
import { PgLeaseStore } from '../session/pg-lease-store.js';

let server: PostgresServer;
let database: string;
let admin: pg.Client;

beforeAll(async () => {
  server = await startPostgres();
  database = await server.createDatabase('leases');
  admin = new pg.Client({ connectionString: database });
  await admin.connect();
}, 60_000);

afterAll(async () => {
  await admin.end();
  await server.stop();
});

const alpha = leaseSettings({ FLOWER_HOST: 'alpha', FLOWER_LEASE_STALE: '30' });
const beta = leaseSettings({ FLOWER_HOST: 'beta', FLOWER_LEASE_STALE: '30' });

describe('PgLeaseStore', () => {
  test('keeps its rows in flower_leases of the location schema, one per run name and lease name', async () => {
    const first = new PgLeaseStore({ location: `${database}?schema=team_a`, run: 'run-one' });
    const second = new PgLeaseStore({ location: `${database}?schema=team_a`, run: 'run-two' });
    const one = holderNamed('one');
    const two = holderNamed('two');
    expect(await first.acquire('go', one, () => true)).toBeNull();
    // The same lease name in another run is another row.
    expect(await second.acquire('go', two, () => true)).toBeNull();
    expect((await second.current('go'))?.token).toBe(two.token);
    const rows = await admin.query<{ run: string; lease: string; token: string }>(
      'SELECT run, lease, token FROM team_a.flower_leases ORDER BY run',
    );
    expect(rows.rows).toEqual([
      { run: 'run-one', lease: 'go', token: one.token },
      { run: 'run-two', lease: 'go', token: two.token },
    ]);
    await first.close();
    await second.close();
  });

  test('ages come from the server clock: a beat stamped 40 s ago reads as 40 s before this host now', async () => {
    const store = new PgLeaseStore({ location: database, run: 'clock' });
    const self = { ...holderNamed('self'), beat: 0, since: 0 }; // the caller's times are not stored
    await store.acquire('go', self, () => true);
    await admin.query(
      "UPDATE flower.flower_leases SET beat = clock_timestamp() - interval '40 seconds' WHERE run = 'clock'",
    );
    const row = await store.current('go');
    expect(Date.now() - row!.beat).toBeGreaterThanOrEqual(40_000);
    expect(Date.now() - row!.beat).toBeLessThan(45_000);
    expect(Math.abs(Date.now() - row!.since)).toBeLessThan(5_000);
    // A renewal stamps the server's time, whatever beat the caller passes.
    expect(await store.renew('go', self.token, 0)).toBe(true);
    expect(Math.abs(Date.now() - (await store.current('go'))!.beat)).toBeLessThan(5_000);
    await store.close();
  });

  test('a pool it is given is left open on close', async () => {
    const pool = new pg.Pool({ connectionString: database, max: 1 });
    const store = new PgLeaseStore({ pool, schema: 'pooled', run: 'pooled' });
    expect(await store.acquire('go', holderNamed('self'), () => true)).toBeNull();
    await store.close();
    expect((await pool.query('SELECT count(*)::int AS n FROM pooled.flower_leases')).rows).toEqual([
      { n: 1 },
    ]);
    await expect(store.current('go')).rejects.toThrow(/closed/);
    await pool.end();
  });
});

describe('RunLease on PostgreSQL', () => {
  test('another host holder is live while fresh; stale by the server clock, it is taken and the old holder has lost it', async () => {
    const claim = await RunLease.acquire(
      new PgLeaseStore({ location: database, run: 'handover' }),
      'go',
      alpha,
    );
    if (claim.kind !== 'acquired') throw new Error('expected to acquire');
    const first = claim.lease;
    const held = await RunLease.acquire(
      new PgLeaseStore({ location: database, run: 'handover' }),
      'go',
      beta,
    );
    expect(held).toMatchObject({ kind: 'held', holder: { host: 'alpha', pid: process.pid } });
    // Thirty-one seconds without a renewal on the server's clock: seen from beta, alpha's row is stale.
    await admin.query(
      "UPDATE flower.flower_leases SET beat = clock_timestamp() - interval '31 seconds' WHERE run = 'handover'",
    );
    const second = await RunLease.acquire(
      new PgLeaseStore({ location: database, run: 'handover' }),
      'go',
      beta,
    );
    expect(second.kind).toBe('acquired');
    let lost = 0;
    first.onLost(() => lost++);
    expect(await first.renew()).toBe(false);
    expect(first.lostTo).toMatchObject({ host: 'beta' });
    expect(lost).toBe(1);
    await first.release();
    if (second.kind === 'acquired') await second.lease.release();
    expect((await admin.query("SELECT * FROM flower.flower_leases WHERE run = 'handover'")).rowCount).toBe(0);
  });

  test('a renewal the server never answers loses the lease a heartbeat before it may go stale', async () => {
    const settings = leaseSettings({ FLOWER_HOST: 'alpha', FLOWER_LEASE_STALE: '3' }); // heartbeat 1 s
    const locker = new pg.Client({ connectionString: database });
    await locker.connect();
    const claim = await RunLease.acquire(
      new PgLeaseStore({ location: database, run: 'hung' }),
      'go',
      settings,
    );
    if (claim.kind !== 'acquired') throw new Error('expected to acquire');
    const lease = claim.lease;
    const lost = new Promise<number>((resolve) => lease.onLost(() => resolve(Date.now())));
    // Hold the row lock: every renewal now waits on the server, as one across a dead network would.
    await locker.query('BEGIN');
    await locker.query("SELECT * FROM flower.flower_leases WHERE run = 'hung' FOR UPDATE");
    const lostAt = await lost;
    expect(lease.lostTo).toBe('unrenewed');
    // Given up at the last renewal plus the stale time less one heartbeat (2 s): before anyone may take it.
    expect(lostAt - lease.holder.beat).toBeGreaterThanOrEqual(2_000);
    expect(lostAt - lease.holder.beat).toBeLessThan(3_000);
    expect(lease.held).toBe(false);
    expect(await lease.renew()).toBe(false);
    await locker.query('ROLLBACK');
    await locker.end();
    await lease.release();
  });
});
