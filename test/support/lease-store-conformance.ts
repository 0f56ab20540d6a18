/**
 * The lease store conformance suite: the same tests against every {@link LeaseStore} (SQLite's
 * `sessions.db` and PostgreSQL), so a run's lease means the same on one host and across hosts. Every result
 * is awaited, so synchronous and asynchronous stores run the same code.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';

import { afterEach, describe, expect, test } from 'vitest';

import type { LeaseAnswers, LeaseHolder, LeaseStore } from '../../src/session/lease-store.js';

/** How the suite gets stores: `open()` gives a new connection to the same, initially empty, store. */
export interface LeaseStoreFixture {
  /** Called before each test: a fresh, empty store location for it. */
  fresh(): void | Promise<void>;
  /** A new store (its own connection) on the current test's location. */
  open(): LeaseStore<LeaseAnswers>;
}

/** A holder named `name` on host `host`, taken now. */
export function holderNamed(name: string, host = 'alpha'): LeaseHolder {
  const now = Date.now();
  return {
    host,
    pid: 4000 + name.length,
    started: `start-${name}`,
    token: `${name}-${randomBytes(4).toString('hex')}`,
    since: now,
    beat: now,
  };
}

const alive = (): boolean => true;
const dead = (): boolean => false;

/** Registers the suite under `name`. */
export function runLeaseStoreSuite(name: string, fixture: LeaseStoreFixture): void {
  describe(`LeaseStore conformance: ${name}`, () => {
    const opened: Array<LeaseStore<LeaseAnswers>> = [];
    const open = async (): Promise<LeaseStore<LeaseAnswers>> => {
      if (opened.length === 0) await fixture.fresh();
      const store = fixture.open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    test('an empty lease is taken; current names the holder, its times on this host clock', async () => {
      const store = await open();
      const self = holderNamed('first');
      expect(await store.acquire('go', self, alive)).toBeNull();
      const row = await store.current('go');
      expect(row).toMatchObject({ host: 'alpha', pid: self.pid, started: self.started, token: self.token });
      // Within a few seconds of now (a store may stamp its own clock's time, converted to this host's).
      expect(Math.abs(row!.beat - Date.now())).toBeLessThan(5_000);
      expect(Math.abs(row!.since - Date.now())).toBeLessThan(5_000);
      expect(await store.current('run:other')).toBeNull();
    });

    test('a live holder keeps the lease: the taker gets it back and the row is unchanged', async () => {
      const store = await open();
      const first = holderNamed('first');
      await store.acquire('go', first, alive);
      const seen: LeaseHolder[] = [];
      const holder = await store.acquire('go', holderNamed('second', 'beta'), (current) => {
        seen.push(current);
        return true;
      });
      expect(holder).toMatchObject({ host: 'alpha', token: first.token });
      expect(seen).toMatchObject([{ token: first.token, pid: first.pid }]);
      expect((await store.current('go'))?.token).toBe(first.token);
    });

    test('a dead holder is replaced; its renewals and its release then change nothing', async () => {
      const store = await open();
      const first = holderNamed('first');
      const second = holderNamed('second', 'beta');
      await store.acquire('go', first, alive);
      expect(await store.acquire('go', second, dead)).toBeNull();
      expect(await store.current('go')).toMatchObject({ host: 'beta', token: second.token });
      expect(await store.renew('go', first.token, Date.now())).toBe(false);
      await store.release('go', first.token);
      expect((await store.current('go'))?.token).toBe(second.token);
    });

    test('the holder renews and re-takes its own row; a lease nobody holds cannot be renewed', async () => {
      const store = await open();
      const self = holderNamed('self');
      await store.acquire('go', self, alive);
      expect(await store.renew('go', self.token, Date.now())).toBe(true);
      // Its own row is never "another live holder".
      expect(await store.acquire('go', self, alive)).toBeNull();
      expect(await store.renew('run:x', self.token, Date.now())).toBe(false);
    });

    test('release deletes the row only for its token, and the lease is free again', async () => {
      const store = await open();
      const self = holderNamed('self');
      await store.acquire('go', self, alive);
      await store.release('go', 'not-the-token');
      expect((await store.current('go'))?.token).toBe(self.token);
      await store.release('go', self.token);
      expect(await store.current('go')).toBeNull();
      expect(await store.acquire('go', holderNamed('next'), alive)).toBeNull();
    });

    test('leases of different names are independent', async () => {
      const store = await open();
      const go = holderNamed('go');
      const run = holderNamed('run', 'beta');
      expect(await store.acquire('go', go, alive)).toBeNull();
      expect(await store.acquire('run:module:export', run, alive)).toBeNull();
      await store.release('go', go.token);
      expect((await store.current('run:module:export'))?.token).toBe(run.token);
    });

    test('of many takers on their own connections at once, exactly one takes a free lease', async () => {
      const stores = await Promise.all(Array.from({ length: 6 }, () => open()));
      // Connected (and the store created) first, so the takers really meet at the row.
      await Promise.all(stores.map(async (store) => await store.current('warm-up')));
      const takers = stores.map((_, index) => holderNamed(`taker${index}`, `host${index}`));
      const answers = await Promise.all(
        stores.map(async (store, index) => await store.acquire('go', takers[index]!, alive)),
      );
      const winners = answers.filter((answer) => answer === null);
      expect(winners).toHaveLength(1);
      const winner = takers[answers.indexOf(null)]!;
      for (const answer of answers) if (answer !== null) expect(answer.token).toBe(winner.token);
      expect((await stores[0]!.current('go'))?.token).toBe(winner.token);
    });

    test('of many takers of a dead holder lease at once, exactly one takes it; the others see the winner', async () => {
      const stores = await Promise.all(Array.from({ length: 6 }, () => open()));
      // Connected (and the store created) first, so the takers really meet at the row.
      await Promise.all(stores.map(async (store) => await store.current('warm-up')));
      const gone = holderNamed('gone');
      await stores[0]!.acquire('go', gone, alive);
      const takers = stores.map((_, index) => holderNamed(`taker${index}`, `host${index}`));
      // Only the killed holder is dead: a taker that overwrote it is alive to everyone else.
      const isLive = (current: LeaseHolder): boolean => current.token !== gone.token;
      const answers = await Promise.all(
        stores.map(async (store, index) => await store.acquire('go', takers[index]!, isLive)),
      );
      expect(answers.filter((answer) => answer === null)).toHaveLength(1);
      const winner = takers[answers.indexOf(null)]!;
      for (const answer of answers) if (answer !== null) expect(answer.token).toBe(winner.token);
    });
  });
}
