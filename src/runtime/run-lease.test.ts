import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { leaseSettings } from '../config/lease-settings.js';
import { SqliteSessionStore } from '../session/sqlite-session-store.js';
import { isLiveHolder, RunLease, sqliteLeaseStore, type LeaseStore } from './run-lease.js';

let runDir: string;
const alpha = leaseSettings({ FLOWER_HOST: 'alpha', FLOWER_LEASE_STALE: '30' });
const beta = leaseSettings({ FLOWER_HOST: 'beta', FLOWER_LEASE_STALE: '30' });

beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), 'flower-lease-'));
});
afterEach(() => rmSync(runDir, { recursive: true, force: true }));

function acquired(settings = alpha): RunLease {
  const claim = RunLease.acquire(sqliteLeaseStore(runDir), 'go', settings);
  if (claim.kind !== 'acquired') throw new Error('expected to acquire');
  return claim.lease;
}

describe('leaseSettings', () => {
  test('FLOWER_HOST and FLOWER_LEASE_STALE, with a heartbeat of at most 10 s and a third of the stale time', () => {
    expect(leaseSettings({ FLOWER_HOST: ' box-1 ' })).toMatchObject({
      host: 'box-1',
      staleS: 60,
      heartbeatS: 10,
    });
    expect(leaseSettings({ FLOWER_LEASE_STALE: '3' })).toMatchObject({ staleS: 3, heartbeatS: 1 });
    expect(leaseSettings({ FLOWER_LEASE_STALE: 'soon' }).staleS).toBe(60);
    expect(leaseSettings({ FLOWER_LEASE_STALE: '-5' }).staleS).toBe(60);
  });
});

describe('RunLease on sessions.db', () => {
  test('a live holder on another host keeps the lease; once stale, the next one takes it and the old one has lost it', () => {
    const first = acquired(alpha);
    const held = RunLease.acquire(sqliteLeaseStore(runDir), 'go', beta);
    expect(held).toMatchObject({ kind: 'held', holder: { host: 'alpha', pid: process.pid } });
    // Thirty seconds without a renewal: seen from beta, alpha's row is stale.
    expect(isLiveHolder(first.holder, beta, first.holder.beat + 30_000)).toBe(false);
    expect(isLiveHolder(first.holder, beta, first.holder.beat + 29_000)).toBe(true);
    const stale = leaseSettings({ FLOWER_HOST: 'beta', FLOWER_LEASE_STALE: '0.001' });
    const second = acquired(stale);
    expect(first.renew()).toBe(false);
    expect(first.lostTo).toMatchObject({ host: 'beta' });
    expect(first.held).toBe(false);
    second.release();
    first.release();
  });

  test('on the same host a holder whose process is gone is dead at once', () => {
    const lease = acquired(alpha);
    const gone = { ...lease.holder, pid: 2 ** 22 + 7, started: 'x' };
    expect(isLiveHolder(gone, alpha)).toBe(false);
    expect(isLiveHolder(gone, beta)).toBe(true); // seen from another host: its beat is fresh
    expect(isLiveHolder({ ...lease.holder }, alpha, lease.holder.beat + 31_000)).toBe(true); // this process runs
    lease.release();
  });

  test('a renewal that keeps failing gives the lease up a heartbeat before another may take it', () => {
    const inner = sqliteLeaseStore(runDir);
    let failing = false;
    const store: LeaseStore = {
      acquire: (run, self, isLive) => inner.acquire(run, self, isLive),
      renew: (run, token, beat) => {
        if (failing) throw new Error('SQLITE_BUSY');
        return inner.renew(run, token, beat);
      },
      release: (run, token) => inner.release(run, token),
      current: (run) => inner.current(run),
      close: () => inner.close(),
    };
    const claim = RunLease.acquire(store, 'go', alpha);
    if (claim.kind !== 'acquired') throw new Error('expected to acquire');
    const lease = claim.lease;
    let lost = 0;
    lease.onLost(() => lost++);
    failing = true;
    const start = lease.holder.beat;
    // Stale after 30 s, a heartbeat of 10 s: still held 19 s after the last renewal, given up at 20 s.
    expect(lease.renew(start + 19_000)).toBe(true);
    expect(lease.renew(start + 20_000)).toBe(false);
    expect(lease.lostTo).toBe('unrenewed');
    expect(lost).toBe(1);
    lease.release();
  });

  test('release deletes the row; the session store opens the file the lease created', async () => {
    const lease = acquired(alpha);
    lease.release();
    expect(RunLease.acquire(sqliteLeaseStore(runDir), 'go', beta).kind).toBe('acquired');
    const store = new SqliteSessionStore(join(runDir, 'sessions.db'));
    expect(await store.listSessions('-x')).toEqual([]);
    store.close();
  });
});
