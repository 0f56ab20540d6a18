// A Runtime whose lease lives in a store that answers through promises (as PostgreSQL's does): the check
// before each step waits for the renewal, so a lease another process took stops the step before any turn.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { agentSpec } from '../agent/agent-spec.js';
import { leaseSettings } from '../config/lease-settings.js';
import { isFlowerError } from '../errors.js';
import type { LeaseStore } from '../session/lease-store.js';
import { ScriptedBackend } from '../testing/scripted-backend.js';
import { scriptedTurn as turn } from '../testing/scripted-turn.js';
import { RunLease, sqliteLeaseStore } from './run-lease.js';
import { Runtime } from './runtime.js';

const worker = agentSpec({ name: 'worker', instructions: 'do the work' });
const config = { env: { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-test' } };
const alpha = leaseSettings({ FLOWER_HOST: 'alpha', FLOWER_LEASE_STALE: '30' });
const beta = leaseSettings({ FLOWER_HOST: 'beta', FLOWER_LEASE_STALE: '0.001' });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-async-lease-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The run directory's SQLite lease store, answering every call a tick later through a promise. */
function answeringLater(runDir: string): LeaseStore<'async'> {
  const inner = sqliteLeaseStore(runDir);
  const later = <T>(work: () => T): Promise<T> =>
    new Promise((resolve) => setImmediate(() => resolve(work())));
  return {
    acquire: (run, self, isLive) => later(() => inner.acquire(run, self, isLive)),
    renew: (run, token, beat) => later(() => inner.renew(run, token, beat)),
    release: (run, token) => later(() => inner.release(run, token)),
    current: (run) => later(() => inner.current(run)),
    close: () => later(() => inner.close()),
  };
}

describe('Runtime with a lease answering through promises', () => {
  test('runs its step while held; once another process took the lease, the next step stops before any turn', async () => {
    const backend = new ScriptedBackend([turn('s1', 'first done'), turn('s2', 'never asked')]);
    const workspace = join(dir, 'ws');
    const runDir = join(workspace, 'runs');
    mkdirSync(runDir, { recursive: true });
    const claim = await RunLease.acquire(answeringLater(runDir), 'go', alpha);
    if (claim.kind !== 'acquired') throw new Error('expected to acquire');
    const leased = new Runtime({ workspace, config, backend, resilience: false, lease: claim.lease });
    try {
      expect((await leased.run(worker, 'one')).ok).toBe(true);
      // Another host takes the run (alpha's row looks stale with beta's tiny stale time).
      const taken = RunLease.acquire(sqliteLeaseStore(runDir), 'go', beta);
      expect(taken.kind).toBe('acquired');
      const failure = await leased.run(worker, 'two').then(
        () => null,
        (error: unknown) => error,
      );
      expect(isFlowerError(failure) && failure.code).toBe('LEASE_LOST');
      expect(backend.requests.map((request) => request.prompt)).toEqual(['one']);
      if (taken.kind === 'acquired') void taken.lease.release(); // SQLite: done at once
    } finally {
      void leased.close();
      await claim.lease.release();
    }
  });
});
