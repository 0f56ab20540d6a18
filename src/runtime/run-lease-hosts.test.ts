// Run leases across two "hosts" on one PostgreSQL server: two processes with different FLOWER_HOST names,
// each in its own scratch folder, driving RunLease through test/support/lease-turns.ts with a short stale
// time (3 s, a renewal every second). After a kill -9 of the holder the other takes over once the lease is
// stale — within the stale time plus one heartbeat — and continues the numbering: no turn runs twice. A holder
// cut off from the server (its lease connection black-holed) stops before its next turn, before the other
// takes over.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.js';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.js';

const register = fileURLToPath(new URL('../../test/fixtures/register-typescript.mjs', import.meta.url));
const script = fileURLToPath(new URL('../../test/support/lease-turns.ts', import.meta.url));

const STALE_S = 3;
const HEARTBEAT_S = 1;
const TURNS = 10;

let server: PostgresServer;
let scratch: string;
const hosts: Host[] = [];
let proxy: TcpProxy | null = null;

beforeAll(async () => {
  server = await startPostgres();
  scratch = mkdtempSync(join(tmpdir(), 'flower-lease-hosts-'));
}, 60_000);

afterEach(async () => {
  for (const host of hosts.splice(0)) host.child.kill('SIGKILL');
  await proxy?.close();
  proxy = null;
});

afterAll(async () => {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

interface Event {
  event: string;
  n?: number;
  to?: string | null;
}

/** One "host": a process with its own FLOWER_HOST and scratch folder, and what it has said so far. */
interface Host {
  name: string;
  child: ChildProcessWithoutNullStreams;
  events: Event[];
  /** Resolves with the first event (already said, or to come) that `matches`. */
  said(matches: (event: Event) => boolean): Promise<Event>;
  exited: Promise<number | null>;
}

function startHost(name: string, leaseLocation: string, recordLocation: string): Host {
  const cwd = mkdtempSync(join(scratch, `${name}-`));
  const child = spawn(process.execPath, ['--import', register, script], {
    cwd,
    env: {
      HOME: cwd,
      FLOWER_HOST: name,
      FLOWER_LEASE_STALE: String(STALE_S),
      LEASE_LOCATION: leaseLocation,
      RECORD_LOCATION: recordLocation,
      TURNS: String(TURNS),
      // Long enough that a slow test (a loaded machine) still kills or cuts the holder well before it is done.
      TURN_MS: '500',
    },
  });
  const events: Event[] = [];
  const waiting: Array<{ matches: (event: Event) => boolean; resolve: (event: Event) => void }> = [];
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const event = JSON.parse(line) as Event;
    events.push(event);
    for (const wait of [...waiting]) {
      if (wait.matches(event)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(event);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const host: Host = {
    name,
    child,
    events,
    exited,
    said: (matches) => {
      const already = events.find(matches);
      if (already !== undefined) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        waiting.push({ matches, resolve });
        void exited.then((code) => {
          if (!events.some(matches)) reject(new Error(`${name} exited (${code}) first:\n${stderr.join('')}`));
        });
      });
    },
  };
  hosts.push(host);
  return host;
}

async function freshDatabase(name: string): Promise<{ url: string; client: pg.Client }> {
  const url = await server.createDatabase(name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    'CREATE TABLE turns (n int NOT NULL, host text NOT NULL, pid int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())',
  );
  await client.query(
    'CREATE TABLE lease_events (host text NOT NULL, what text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())',
  );
  return { url, client };
}

/** Every turn written, in order of writing. */
async function turnsOf(client: pg.Client): Promise<Array<{ n: number; host: string }>> {
  return (await client.query<{ n: number; host: string }>('SELECT n, host FROM turns ORDER BY at, n')).rows;
}

/** The server time (epoch ms) of `what` said by `host` in lease_events. */
async function eventAt(client: pg.Client, host: string, what: string): Promise<number> {
  const rows = await client.query<{ at: Date }>('SELECT at FROM lease_events WHERE host = $1 AND what = $2', [
    host,
    what,
  ]);
  return rows.rows[0]!.at.getTime();
}

const isTurn = (n: number) => (event: Event) => event.event === 'turn' && event.n === n;
const is = (name: string) => (event: Event) => event.event === name;

describe('RunLease on PostgreSQL across two hosts', () => {
  test(
    'after a kill -9 of the holder the other host takes over within stale + heartbeat and no turn runs twice',
    { timeout: 60_000 },
    async () => {
      const { url, client } = await freshDatabase('handover');
      try {
        // The holder's lease connection is named, so the test can see the server drop it after the kill.
        const alpha = startHost('alpha', `${url}?application_name=lease_alpha`, url);
        await alpha.said(is('acquired'));
        const beta = startHost('beta', url, url);
        await beta.said(is('held'));
        await alpha.said(isTurn(4));
        const killedAt = Date.now();
        alpha.child.kill('SIGKILL');
        expect(await alpha.exited).toBeNull();
        // The server notices the dead client; a renewal it had sent is then committed or gone for good.
        for (;;) {
          const open = await client.query(
            "SELECT 1 FROM pg_stat_activity WHERE application_name = 'lease_alpha'",
          );
          if (open.rowCount === 0) break;
        }
        const lastBeat = (
          await client.query<{ beat: Date; host: string }>('SELECT beat, host FROM flower.flower_leases')
        ).rows[0]!;
        expect(lastBeat.host).toBe('alpha');
        await beta.said(is('acquired'));
        const tookOverAfterMs = Date.now() - killedAt;
        const since = (
          await client.query<{ since: Date; host: string }>('SELECT since, host FROM flower.flower_leases')
        ).rows[0]!;
        expect(since.host).toBe('beta');
        // On the server's clock: taken once the holder's last renewal was stale, and at most one heartbeat later.
        const gap = since.since.getTime() - lastBeat.beat.getTime();
        expect(gap).toBeGreaterThanOrEqual(STALE_S * 1000);
        expect(gap).toBeLessThanOrEqual((STALE_S + HEARTBEAT_S) * 1000);
        // As the test saw it: within the stale time plus one heartbeat of the kill.
        expect(tookOverAfterMs).toBeLessThanOrEqual((STALE_S + HEARTBEAT_S) * 1000);
        await beta.said(is('done'));
        expect(await beta.exited).toBe(0);
        const turns = await turnsOf(client);
        // Every number once, in order; alpha's first, then beta continuing where alpha stopped.
        expect(turns.map((turn) => turn.n)).toEqual(Array.from({ length: TURNS }, (_, index) => index + 1));
        const split = turns.findIndex((turn) => turn.host === 'beta');
        expect(split).toBeGreaterThanOrEqual(4);
        expect(turns.slice(0, split).every((turn) => turn.host === 'alpha')).toBe(true);
        expect(turns.slice(split).every((turn) => turn.host === 'beta')).toBe(true);
        expect((await client.query('SELECT 1 FROM flower.flower_leases')).rowCount).toBe(0); // released
      } finally {
        await client.end();
      }
    },
  );

  test(
    'a holder cut off from the server stops before its next turn, before the other host takes over',
    { timeout: 60_000 },
    async () => {
      const { url, client } = await freshDatabase('partition');
      try {
        proxy = await startTcpProxy(server.port);
        // Only alpha's lease store goes through the relay: its record connection still works, so a turn it
        // ran after losing the lease would show in the record.
        const relayed = url.replace(`:${server.port}/`, `:${proxy.port}/`);
        const alpha = startHost('alpha', relayed, url);
        await alpha.said(is('acquired'));
        const beta = startHost('beta', url, url);
        await beta.said(is('held'));
        await alpha.said(isTurn(3));
        proxy.cut();
        expect(await alpha.said(is('lost'))).toMatchObject({ to: 'unrenewed' });
        expect(await alpha.exited).toBe(3);
        await beta.said(is('done'));
        expect(await beta.exited).toBe(0);
        // Never two writers: alpha stopped (server clock) before beta took the lease.
        expect(await eventAt(client, 'alpha', 'lost')).toBeLessThan(
          await eventAt(client, 'beta', 'acquired'),
        );
        const turns = await turnsOf(client);
        expect(turns.map((turn) => turn.n)).toEqual(Array.from({ length: TURNS }, (_, index) => index + 1));
        const split = turns.findIndex((turn) => turn.host === 'beta');
        expect(split).toBeGreaterThanOrEqual(3);
        expect(turns.slice(0, split).every((turn) => turn.host === 'alpha')).toBe(true);
        expect(turns.slice(split).every((turn) => turn.host === 'beta')).toBe(true);
      } finally {
        await client.end();
      }
    },
  );
});
