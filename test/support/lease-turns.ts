/**
 * One "host" of the two-host lease test (`src/runtime/run-lease-hosts.test.ts`), run as its own process with
 * `node --import test/fixtures/register-typescript.mjs`: it takes the run's lease in PostgreSQL through
 * `RunLease` (retrying while another live process holds it, as the next `flower` would), then does numbered
 * "turns" — each renews the lease first, as the runtime does before a step, and appends the next number to
 * the shared record `turns`, continuing what is there, as a resumed run continues its transcript.
 *
 * Environment: `FLOWER_HOST`, `FLOWER_LEASE_STALE` (as flower reads them), `LEASE_LOCATION` (the lease
 * store), `RECORD_LOCATION` (the record), `TURNS` (the last number), `TURN_MS` (how long a turn works).
 * Says on stdout, one JSON object a line: `held`, `acquired`, `turn` (with `n`), `lost`, `done`. Exits 0 when
 * done, 3 when the lease was lost.
 *
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';

import pg from 'pg';

import { leaseSettings } from '../../src/config/lease-settings.js';
import { RunLease } from '../../src/runtime/run-lease.js';
import { PgLeaseStore } from '../../src/session/pg-lease-store.js';

const env = process.env;
const settings = leaseSettings(env);
const turns = Number(env['TURNS']);
const turnMs = Number(env['TURN_MS']);

function say(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

const record = new pg.Client({ connectionString: env['RECORD_LOCATION'] });
await record.connect();

async function note(what: string): Promise<void> {
  await record.query('INSERT INTO lease_events (host, what) VALUES ($1, $2)', [settings.host, what]);
}

let lease: RunLease<'async'>;
for (;;) {
  const store = new PgLeaseStore({ location: env['LEASE_LOCATION']!, run: 'two-hosts' });
  const claim = await RunLease.acquire(store, 'go', settings);
  if (claim.kind === 'acquired') {
    lease = claim.lease;
    break;
  }
  say({ event: 'held', by: claim.holder.host });
  // A quarter heartbeat between tries: the take-over then happens well within one heartbeat of staleness.
  await sleep((settings.heartbeatS * 1000) / 4);
}
await note('acquired');
say({ event: 'acquired' });

for (;;) {
  // What the runtime does before every step: a lease lost (or not renewable in time) stops here.
  if (!(await lease.renew())) {
    await note('lost');
    say({ event: 'lost', to: lease.lostTo === 'unrenewed' ? 'unrenewed' : (lease.lostTo?.host ?? null) });
    process.exit(3);
  }
  const next = (await record.query<{ n: number }>('SELECT coalesce(max(n), 0) + 1 AS n FROM turns')).rows[0]!
    .n;
  if (next > turns) break;
  await record.query('INSERT INTO turns (n, host, pid) VALUES ($1, $2, $3)', [
    next,
    settings.host,
    process.pid,
  ]);
  say({ event: 'turn', n: next });
  await sleep(turnMs);
}
await lease.release();
await record.end();
say({ event: 'done' });
