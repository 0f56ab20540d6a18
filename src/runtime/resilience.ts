/**
 * `Resilience`: how flower waits out faults instead of failing a ten-hour run (docs/resilience.md,
 * decisions.md D6, 22). It answers three questions for the runtime's retry loop: retry this kind of error?
 * how long to back off before attempt N? is the API endpoint reachable — and if not, wait (probing for free)
 * until it is or until the offline limit. The retry itself resumes the same session with {@link
 * Resilience.resumePrompt}, which deliberately carries no error detail: the model should continue the work,
 * not debug the outage.
 *
 * @module
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Env } from '../config/process-environment.js';
import { formatElapsed } from '../config/format-elapsed.js';
import { humanDuration, uiText, type Lang } from '../config/ui-text.js';
import type { ErrorKind } from './classify-error.js';
import { endpoint, reachable } from './network-probe.js';
import { resilienceSettings, type ResilienceSettings } from './resilience-settings.js';

/**
 * One of the two notices of an outage: `unreachable` when the first probe fails (with the longest wait
 * ahead), `back` when a probe succeeds again (with the time waited). Never more than one of each per wait.
 */
export interface WaitNotice {
  state: 'unreachable' | 'back';
  host: string;
  port: number;
  /** The offline limit in seconds. */
  maxWaitS: number;
  /** Seconds since the wait began. */
  waitedS: number;
  /** The endpoint was never reached in this process: the wait is the short {@link ResilienceSettings.unreachableWait}. */
  neverReached?: boolean;
}

/** After each failed probe of a wait: how long it has waited and when the next probe comes. */
export interface WaitCheck {
  host: string;
  port: number;
  /** Seconds since the wait began. */
  waitedS: number;
  /** Seconds until the next probe. */
  nextCheckS: number;
}

/** How {@link Resilience.waitOnline} waits beyond its defaults. */
export interface WaitOptions {
  /** Aborts the wait at once. */
  signal?: AbortSignal;
  /**
   * The endpoint was never reached in this process: wait at most `unreachableWait` (a wrong address does not
   * come back by itself), and say so in the notice.
   */
  neverReached?: boolean;
  /** Called after each failed probe, for a line that shows the wait is alive. */
  onCheck?: (check: WaitCheck) => void;
}

/** Time as {@link Resilience} sees it; tests inject a fake one so a one-hour wait takes no real time. */
export interface ResilienceClock {
  /** Epoch seconds. */
  now(): number;
  /** Waits `seconds`; resolves `false` at once when `signal` aborts (never rejects). */
  sleep(seconds: number, signal?: AbortSignal): Promise<boolean>;
}

/** What {@link Resilience} uses from the outside world; every part has a real default. */
export interface ResilienceDependencies {
  /** Where `ANTHROPIC_BASE_URL` is read for the probe; the process environment by default. */
  env?: Env;
  /** Jitter source in [0, 1); `Math.random` by default. */
  random?: () => number;
  /** The real clock by default. */
  clock?: ResilienceClock;
  /** The reachability probe; {@link reachable} by default. */
  probe?: (host: string, port: number, timeoutS: number) => Promise<boolean>;
}

/** The real clock: `Date.now()` and an abortable timer. */
export const SYSTEM_CLOCK: ResilienceClock = Object.freeze({
  now: () => Date.now() / 1000,
  async sleep(seconds: number, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return false;
    try {
      await delay(Math.max(0, seconds) * 1000, undefined, signal === undefined ? {} : { signal });
      return true;
    } catch {
      return false;
    }
  },
});

/**
 * The resilience settings plus the behaviour built on them. Construct with any subset of
 * {@link ResilienceSettings}; the rest are the defaults (6 attempts, 4 s base, 120 s cap, 5 s probes every
 * 15 s, one hour offline at most, unknown errors retried, 120 s stall watchdog, 2 CLI retries, 300 s API
 * timeout). Throws `FlowerError` `CONFIG_INVALID` for a bad setting.
 */
export class Resilience implements ResilienceSettings {
  readonly enabled: boolean;
  readonly maxAttempts: number;
  readonly baseDelay: number;
  readonly maxDelay: number;
  readonly probeTimeout: number;
  readonly probeInterval: number;
  readonly maxOfflineWait: number;
  readonly unreachableWait: number;
  readonly retryUnknown: boolean;
  readonly resumePrompt: string;
  readonly stallTimeoutS: number;
  readonly cliMaxRetries: number;
  readonly apiTimeoutMs: number;

  readonly #env: Env | undefined;
  readonly #random: () => number;
  readonly #clock: ResilienceClock;
  readonly #probe: (host: string, port: number, timeoutS: number) => Promise<boolean>;
  #reached = false;

  constructor(options: Partial<ResilienceSettings> = {}, dependencies: ResilienceDependencies = {}) {
    const settings = resilienceSettings(options);
    this.enabled = settings.enabled;
    this.maxAttempts = settings.maxAttempts;
    this.baseDelay = settings.baseDelay;
    this.maxDelay = settings.maxDelay;
    this.probeTimeout = settings.probeTimeout;
    this.probeInterval = settings.probeInterval;
    this.maxOfflineWait = settings.maxOfflineWait;
    this.unreachableWait = settings.unreachableWait;
    this.retryUnknown = settings.retryUnknown;
    this.resumePrompt = settings.resumePrompt;
    this.stallTimeoutS = settings.stallTimeoutS;
    this.cliMaxRetries = settings.cliMaxRetries;
    this.apiTimeoutMs = settings.apiTimeoutMs;
    this.#env = dependencies.env;
    this.#random = dependencies.random ?? Math.random;
    this.#clock = dependencies.clock ?? SYSTEM_CLOCK;
    this.#probe = dependencies.probe ?? reachable;
  }

  /**
   * Seconds to back off before retrying after failed attempt `attempt` (1-based):
   * `min(baseDelay · 2^(attempt−1), maxDelay)` times a jitter factor in [0.75, 1.25), so a fleet of
   * clients does not reconnect in step. At the defaults: about 4, 8, 16, 32 and 64 s; the cap binds only
   * from attempt 6, which six attempts never reach (decisions.md D22).
   */
  delayFor(attempt: number): number {
    const exponent = Math.max(1, Math.floor(Number.isFinite(attempt) ? attempt : 1)) - 1;
    const capped = Math.min(this.baseDelay * 2 ** exponent, this.maxDelay);
    return capped * (0.75 + this.#random() * 0.5);
  }

  /** Transient errors are retried; unknown ones too while `retryUnknown` is on (fatal ones are sorted out first). */
  shouldRetry(kind: ErrorKind): boolean {
    return kind === 'transient' || (kind === 'unknown' && this.retryUnknown);
  }

  /**
   * True once the endpoint answered in this process: a probe succeeded or {@link markReached} was called.
   * Until then an outage is more likely a wrong address than a network that will come back.
   */
  get reached(): boolean {
    return this.#reached;
  }

  /** Notes that the API answered (a response arrived), so later outages get the full offline wait. */
  markReached(): void {
    this.#reached = true;
  }

  /** The longest wait for the network now: `unreachableWait` (capped by `maxOfflineWait`) until reached. */
  offlineLimit(neverReached: boolean): number {
    return neverReached ? Math.min(this.unreachableWait, this.maxOfflineWait) : this.maxOfflineWait;
  }

  /**
   * Waits until the API endpoint (`ANTHROPIC_BASE_URL`'s host and port) accepts a TCP connection. Probes at
   * once; while down, `notify`s `unreachable` once, probes every `probeInterval` seconds (never sleeping
   * past the deadline), calls `onCheck` after each failed probe and, when a probe succeeds, `notify`s `back`
   * once and resolves `true`. Resolves `false` when the limit ({@link offlineLimit}) passes first, or at once
   * when the signal aborts (check `signal.aborted` to tell the two apart). Never rejects; an exception thrown
   * by `notify` or `onCheck` is ignored so that a broken display cannot end a wait. A signal may be passed
   * directly as the second argument.
   */
  async waitOnline(
    notify?: (notice: WaitNotice) => void,
    options: WaitOptions | AbortSignal = {},
  ): Promise<boolean> {
    const {
      signal,
      neverReached = false,
      onCheck,
    } = options instanceof AbortSignal ? { signal: options } : options;
    const { host, port } = endpoint(this.#env);
    const clock = this.#clock;
    const start = clock.now();
    const limit = this.offlineLimit(neverReached);
    const deadline = start + limit;
    const send = (state: WaitNotice['state']): void => {
      const notice: WaitNotice = { state, host, port, maxWaitS: limit, waitedS: clock.now() - start };
      if (neverReached) notice.neverReached = true;
      try {
        notify?.(notice);
      } catch {
        // The runtime's own sinks record display failures; the wait must go on regardless.
      }
    };
    const check = (nextCheckS: number): void => {
      try {
        onCheck?.({ host, port, waitedS: clock.now() - start, nextCheckS });
      } catch {
        // As for notices: the display never ends the wait.
      }
    };
    let failed = false;
    for (;;) {
      if (signal?.aborted) return false;
      const probe = this.#probe(host, port, this.probeTimeout).catch(() => false);
      const up = await untilAborted(probe, signal);
      if (up === null) return false;
      if (up) {
        this.#reached = true;
        if (failed) send('back');
        return true;
      }
      if (!failed) {
        failed = true;
        send('unreachable');
      }
      const remaining = deadline - clock.now();
      if (remaining <= 0) return false;
      const pause = Math.min(this.probeInterval, remaining);
      check(pause);
      if (!(await clock.sleep(pause, signal))) return false;
    }
  }

  /** Epoch seconds on this instance's clock. */
  now(): number {
    return this.#clock.now();
  }

  /** Waits `seconds` on this instance's clock (the backoff between attempts); `false` when `signal` aborts. */
  sleep(seconds: number, signal?: AbortSignal): Promise<boolean> {
    return this.#clock.sleep(seconds, signal);
  }
}

/** The screen line for a {@link WaitNotice} (catalog keys `net.unreachable`, `net.neverReached`, `net.back`). */
export function waitNoticeText(notice: WaitNotice, lang: Lang = 'en'): string {
  if (notice.state === 'unreachable' && notice.neverReached === true) {
    const vars = { host: notice.host, port: notice.port, wait: humanDuration(notice.maxWaitS, lang) };
    return uiText('net.neverReached', vars, lang);
  }
  return notice.state === 'unreachable'
    ? uiText(
        'net.unreachable',
        { host: notice.host, port: notice.port, wait: humanDuration(notice.maxWaitS, lang) },
        lang,
      )
    : uiText(
        'net.back',
        { host: notice.host, port: notice.port, waited: humanDuration(notice.waitedS, lang) },
        lang,
      );
}

/**
 * What a step's error gets when the network stayed down past the limit (catalog key `net.gaveUp`, or
 * `net.neverGaveUp` when the endpoint was never reached in this process).
 */
export function gaveUpText(maxOfflineWaitS: number, lang: Lang = 'en', neverReached = false): string {
  return uiText(
    neverReached ? 'net.neverGaveUp' : 'net.gaveUp',
    { wait: humanDuration(maxOfflineWaitS, lang) },
    lang,
  );
}

/** The countdown line of a wait: `waiting for 127.0.0.1:59999 · 3:12 so far · next check in 11 s · Ctrl-C to stop`. */
export function waitCheckText(check: WaitCheck, lang: Lang = 'en'): string {
  return uiText(
    'net.waiting',
    {
      host: check.host,
      port: check.port,
      waited: formatElapsed(check.waitedS),
      next: humanDuration(check.nextCheckS, lang),
    },
    lang,
  );
}

// A probe cannot be cancelled, but an aborted wait must return at once: `null` means "aborted".
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | null> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.resolve(null);
  return new Promise<T | null>((resolve) => {
    const onAbort = (): void => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}
