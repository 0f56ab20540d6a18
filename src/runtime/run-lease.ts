/**
 * `RunLease`: the one process allowed to drive a run (docs/scaling.md, decisions.md D329). The holder
 * renews its lease row every few seconds; a second `flower` that finds a live holder only watches (status,
 * `ask`). A holder on another host counts as alive while its last renewal is younger than the stale time; one
 * on this same host while its process is still running (a `kill -9` frees the run at once). A holder that finds its row taken by another process, or could not renew it for the stale
 * time (after which another may have taken it), has lost the lease: it is told at once, and the runtime stops
 * before the next turn. So there are never two writers, as long as clocks agree to within the stale time
 * (a store that stamps renewals with its own clock, as PostgreSQL's does, needs only that clocks run at the
 * same rate).
 *
 * The store may answer at once (SQLite) or through promises (PostgreSQL): with a synchronous store every
 * method here answers synchronously too, as it always did; with an asynchronous one `acquire`, `renew` and
 * `release` return promises, which callers await (docs/decisions.md D435).
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { LeaseSettings } from '../config/lease-settings.js';
import {
  isPromiseLike,
  type LeaseAnswers,
  type LeaseHolder,
  type LeaseResult,
  type LeaseStore,
} from '../session/lease-store.js';
import { SqliteLeaseStore } from '../session/sqlite-lease-store.js';
import { isRunning, processStartTime } from './run-processes.js';

export type { LeaseAnswers, LeaseHolder, LeaseStore } from '../session/lease-store.js';

/** What {@link RunLease.acquire} found (a lease answering as its store does). */
export type LeaseClaim<A extends LeaseAnswers = 'sync'> =
  { kind: 'acquired'; lease: RunLease<A> } | { kind: 'held'; holder: LeaseHolder };

/** The lease store of a run directory with the SQLite default: a table in its `sessions.db`. */
export function sqliteLeaseStore(runDir: string): LeaseStore {
  return new SqliteLeaseStore(join(runDir, 'sessions.db'));
}

/** True while `holder` counts as alive for a process on `host` at `now` (epoch ms). */
export function isLiveHolder(holder: LeaseHolder, settings: LeaseSettings, now = Date.now()): boolean {
  // On this host the process table is the truth: a killed holder frees the run at once, a live one (even
  // one too busy to renew) keeps it. Another host's holder is judged by its last renewal.
  if (holder.host === settings.host) return isRunning({ pid: holder.pid, started: holder.started });
  return now - holder.beat < settings.staleS * 1000;
}

/** The one line said when a holder lost its lease to `to` (another process, or failed renewals). */
export function leaseLostText(to: LeaseHolder | 'unrenewed' | null): string {
  const who =
    to === null || to === 'unrenewed'
      ? 'it could not be renewed'
      : `pid ${to.pid} on ${to.host} holds it now`;
  return `This flower lost the run's lease (${who}), so it stopped before its next turn; the run goes on there.`;
}

/** A value, or a promise of it, as a store of either kind gives it. */
type Maybe<T> = T | Promise<T>;

/** `next(value)`, at once when `value` is not a promise, else once it resolves. */
function after<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return isPromiseLike(value) ? value.then(next) : next(value);
}

/** Runs `work`, ignoring a throw or a rejection: what is given back on the way out must never fail. */
function quietly(work: () => Maybe<void>): Maybe<void> {
  try {
    const done = work();
    return isPromiseLike(done) ? done.catch(() => undefined) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * This process's lease on one run, renewed until released or lost. `A`: whether its store answers at once
 * (`sync`, the bare name, as with SQLite) or through promises (`async`), and so `renew` and `release` too;
 * `RunLease<LeaseAnswers>` is a lease of either kind.
 */
export class RunLease<A extends LeaseAnswers = 'sync'> {
  readonly run: string;
  readonly holder: LeaseHolder;
  readonly #store: LeaseStore<LeaseAnswers>;
  readonly #settings: LeaseSettings;
  #timer: NodeJS.Timeout | null = null;
  #lastRenewed: number;
  #lost: LeaseHolder | 'unrenewed' | null = null;
  #released = false;
  /** The renewal an asynchronous store is still answering: a second caller waits for the same one. */
  #renewing: Promise<boolean> | null = null;
  /** What {@link release} is still doing with an asynchronous store. */
  #releasing: Promise<void> | null = null;
  readonly #listeners: Array<() => void> = [];

  private constructor(
    store: LeaseStore<LeaseAnswers>,
    run: string,
    holder: LeaseHolder,
    settings: LeaseSettings,
  ) {
    this.#store = store;
    this.run = run;
    this.holder = holder;
    this.#settings = settings;
    this.#lastRenewed = holder.beat;
  }

  /**
   * Takes the lease of `run` in `store`, unless a live other process holds it (returned, and the store is
   * closed). Once acquired, the lease renews itself every `heartbeatS` seconds until {@link release}.
   * Synchronous for a synchronous store; a promise for an asynchronous one.
   */
  static acquire(store: LeaseStore<'sync'>, run: string, settings: LeaseSettings): LeaseClaim<'sync'>;
  static acquire(
    store: LeaseStore<'async'>,
    run: string,
    settings: LeaseSettings,
  ): Promise<LeaseClaim<'async'>>;
  static acquire(
    store: LeaseStore<LeaseAnswers>,
    run: string,
    settings: LeaseSettings,
  ): Maybe<LeaseClaim<LeaseAnswers>>;
  static acquire(
    store: LeaseStore<LeaseAnswers>,
    run: string,
    settings: LeaseSettings,
  ): Maybe<LeaseClaim<LeaseAnswers>> {
    const now = Date.now();
    const self: LeaseHolder = {
      host: settings.host,
      pid: process.pid,
      started: processStartTime(process.pid),
      token: randomBytes(8).toString('hex'),
      since: now,
      beat: now,
    };
    const failed = (error: unknown): Maybe<never> =>
      after(
        quietly(() => store.close()),
        () => {
          throw error;
        },
      );
    let answer: Maybe<LeaseHolder | null>;
    try {
      answer = store.acquire(run, self, (current) => isLiveHolder(current, settings));
    } catch (error) {
      return failed(error);
    }
    const claimed = (holder: LeaseHolder | null): Maybe<LeaseClaim<LeaseAnswers>> => {
      if (holder !== null) return after(store.close(), (): LeaseClaim => ({ kind: 'held', holder }));
      const lease = new RunLease<LeaseAnswers>(store, run, self, settings);
      lease.#start();
      return { kind: 'acquired', lease };
    };
    return isPromiseLike(answer) ? answer.then(claimed, failed) : claimed(answer);
  }

  /** True while this process may drive the run. */
  get held(): boolean {
    return this.#lost === null && !this.#released;
  }

  /** Who took the lease, `'unrenewed'` when renewals failed for the stale time, or null while held. */
  get lostTo(): LeaseHolder | 'unrenewed' | null {
    return this.#lost;
  }

  /** Calls `listener` once, when the lease is lost (never after {@link release}). */
  onLost(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Renews now; what the timer calls. Returns whether the lease is still held: at once with a synchronous
   * store, else a promise that never rejects, and that resolves false at the latest when the stale time less
   * one heartbeat has passed since the last renewal (a store that does not answer cannot keep the lease).
   */
  renew(now = Date.now()): LeaseResult<boolean, A> {
    return this.#renew(now) as LeaseResult<boolean, A>;
  }

  /**
   * Stops renewing and gives the lease back (only if still ours). Idempotent; with an asynchronous store a
   * promise (the same one on every call) that resolves once the row is deleted and the store closed.
   */
  release(): LeaseResult<void, A> {
    return this.#release() as LeaseResult<void, A>;
  }

  #renew(now: number): Maybe<boolean> {
    if (!this.held) return false;
    if (this.#renewing !== null) return this.#renewing;
    let answer: Maybe<boolean>;
    try {
      answer = this.#store.renew(this.run, this.holder.token, now);
    } catch {
      return this.#unrenewed(now);
    }
    if (!isPromiseLike(answer)) return this.#answered(answer, now);
    const pending = this.#awaitRenewal(answer, now);
    this.#renewing = pending;
    void pending.then(() => {
      if (this.#renewing === pending) this.#renewing = null;
    });
    return pending;
  }

  #release(): Maybe<void> {
    if (this.#released) return this.#releasing ?? undefined;
    this.#released = true;
    this.#stop();
    // A renewal still on its way ends first, so the row is deleted after it, not before.
    const giveBack = (): Maybe<void> =>
      after(
        this.#lost === null ? quietly(() => this.#store.release(this.run, this.holder.token)) : undefined,
        () => quietly(() => this.#store.close()),
      );
    const done = this.#renewing === null ? giveBack() : this.#renewing.then(giveBack);
    if (isPromiseLike(done)) this.#releasing = done;
    return done;
  }

  /** What a renewal's answer means: still ours, or taken (by whom, when the store can say). */
  #answered(renewed: boolean, now: number): Maybe<boolean> {
    if (renewed) {
      this.#lastRenewed = Math.max(this.#lastRenewed, now);
      return this.held;
    }
    let taker: Maybe<LeaseHolder | null>;
    try {
      taker = this.#store.current(this.run);
    } catch {
      taker = null;
    }
    const lose = (holder: LeaseHolder | null): boolean => {
      this.#lose(holder ?? 'unrenewed');
      return this.held;
    };
    return isPromiseLike(taker) ? taker.then(lose, () => lose(null)) : lose(taker);
  }

  /** A renewal that failed: the lease is still ours until the stale time less one heartbeat has passed. */
  #unrenewed(now: number): boolean {
    // A busy or unreachable store. Another process may take the lease once the stale time has passed
    // since the last renewal; this one gives up a heartbeat before that, so the two never overlap.
    if (now - this.#lastRenewed >= this.#giveUpAfterMs()) this.#lose('unrenewed');
    return this.held;
  }

  /** An asynchronous renewal, given up on (lease lost) when it has not answered by the give-up time. */
  #awaitRenewal(answer: Promise<boolean>, now: number): Promise<boolean> {
    return new Promise((resolve) => {
      const deadline = this.#lastRenewed + this.#giveUpAfterMs();
      const timer = setTimeout(
        () => {
          this.#lose('unrenewed');
          resolve(this.held);
        },
        Math.max(0, deadline - Date.now()),
      );
      const settle = (held: boolean): void => {
        clearTimeout(timer);
        resolve(held);
      };
      answer
        .then(
          (renewed) => this.#answered(renewed, now),
          // Judged by when the failure came back, not when the renewal left.
          () => this.#unrenewed(Math.max(now, Date.now())),
        )
        .then(settle, () => settle(this.held));
    });
  }

  #giveUpAfterMs(): number {
    const { staleS, heartbeatS } = this.#settings;
    return (staleS - heartbeatS) * 1000;
  }

  #start(): void {
    this.#timer = setInterval(() => void this.#renew(Date.now()), this.#settings.heartbeatS * 1000);
    // Renewing must never keep a finished flower alive.
    this.#timer.unref();
  }

  #stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  #lose(to: LeaseHolder | 'unrenewed'): void {
    // A renewal that answers after release() must not report a loss: the row was given back on purpose.
    if (this.#lost !== null || this.#released) return;
    this.#lost = to;
    this.#stop();
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // One listener's failure must not keep the others from stopping the run.
      }
    }
  }
}
