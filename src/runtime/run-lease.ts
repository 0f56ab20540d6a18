/**
 * `RunLease`: the one process allowed to drive a run (docs/scaling.md, decisions.md D329). The holder
 * renews its lease row every few seconds; a second `flower` that finds a live holder only watches (status,
 * `ask`). A holder on another host counts as alive while its last renewal is younger than the stale time; one
 * on this same host while its process is still running (a `kill -9` frees the run at once). A holder that finds its row taken by another process, or could not renew it for the stale
 * time (after which another may have taken it), has lost the lease: it is told at once, and the runtime stops
 * before the next turn. So there are never two writers, as long as clocks agree to within the stale time.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { LeaseSettings } from '../config/lease-settings.js';
import type { LeaseHolder, LeaseStore } from '../session/lease-store.js';
import { SqliteLeaseStore } from '../session/sqlite-lease-store.js';
import { isRunning, processStartTime } from './run-processes.js';

export type { LeaseHolder, LeaseStore } from '../session/lease-store.js';

/** What {@link RunLease.acquire} found. */
export type LeaseClaim = { kind: 'acquired'; lease: RunLease } | { kind: 'held'; holder: LeaseHolder };

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

/** This process's lease on one run, renewed until released or lost. */
export class RunLease {
  readonly run: string;
  readonly holder: LeaseHolder;
  readonly #store: LeaseStore;
  readonly #settings: LeaseSettings;
  #timer: NodeJS.Timeout | null = null;
  #lastRenewed: number;
  #lost: LeaseHolder | 'unrenewed' | null = null;
  #released = false;
  readonly #listeners: Array<() => void> = [];

  private constructor(store: LeaseStore, run: string, holder: LeaseHolder, settings: LeaseSettings) {
    this.#store = store;
    this.run = run;
    this.holder = holder;
    this.#settings = settings;
    this.#lastRenewed = holder.beat;
  }

  /**
   * Takes the lease of `run` in `store`, unless a live other process holds it (returned, and the store is
   * closed). Once acquired, the lease renews itself every `heartbeatS` seconds until {@link release}.
   */
  static acquire(store: LeaseStore, run: string, settings: LeaseSettings): LeaseClaim {
    const now = Date.now();
    const self: LeaseHolder = {
      host: settings.host,
      pid: process.pid,
      started: processStartTime(process.pid),
      token: randomBytes(8).toString('hex'),
      since: now,
      beat: now,
    };
    let holder: LeaseHolder | null;
    try {
      holder = store.acquire(run, self, (current) => isLiveHolder(current, settings));
    } catch (error) {
      store.close();
      throw error;
    }
    if (holder !== null) {
      store.close();
      return { kind: 'held', holder };
    }
    const lease = new RunLease(store, run, self, settings);
    lease.#start();
    return { kind: 'acquired', lease };
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

  /** Renews now; what the timer calls. Returns whether the lease is still held. */
  renew(now = Date.now()): boolean {
    if (!this.held) return false;
    try {
      if (this.#store.renew(this.run, this.holder.token, now)) this.#lastRenewed = now;
      else this.#lose(this.#store.current(this.run) ?? 'unrenewed');
    } catch {
      // A busy or unreachable store. Another process may take the lease once the stale time has passed
      // since the last renewal; this one gives up a heartbeat before that, so the two never overlap.
      const { staleS, heartbeatS } = this.#settings;
      if (now - this.#lastRenewed >= (staleS - heartbeatS) * 1000) this.#lose('unrenewed');
    }
    return this.held;
  }

  /** Stops renewing and gives the lease back (only if still ours). Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#stop();
    try {
      if (this.#lost === null) this.#store.release(this.run, this.holder.token);
    } catch {
      // The row goes stale on its own.
    }
    try {
      this.#store.close();
    } catch {
      // Nothing left to do.
    }
  }

  #start(): void {
    this.#timer = setInterval(() => this.renew(), this.#settings.heartbeatS * 1000);
    // Renewing must never keep a finished flower alive.
    this.#timer.unref();
  }

  #stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  #lose(to: LeaseHolder | 'unrenewed'): void {
    if (this.#lost !== null) return;
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
