/**
 * The knobs of flower's resilience layer (docs/resilience.md, decisions.md D6, D22, D30). flower owns retries
 * and the stall watchdog, so the Claude Code child gets only a small retry count and a finite request
 * timeout.
 *
 * @module
 */
import { DEFAULT_CHILD_REQUEST_LIMITS } from '../agent/build-options.js';
import { FlowerError } from '../errors.js';
import { valueText } from '../internal/value-text.js';

/** Every resilience setting, with the defaults in {@link DEFAULT_RESILIENCE_SETTINGS}. */
export interface ResilienceSettings {
  /** Off: one attempt per step, no waiting for the network. */
  enabled: boolean;
  /** Attempts per step, the first included. */
  maxAttempts: number;
  /** Seconds before the first retry; doubled per attempt, ±25 % jitter (about 4, 8, 16, 32, 64 s). */
  baseDelay: number;
  /**
   * Cap of one backoff wait in seconds; with the defaults it binds only from attempt 6 (decisions.md D22).
   */
  maxDelay: number;
  /** Seconds for one reachability probe (DNS + TCP connect, no HTTP, no cost). */
  probeTimeout: number;
  /** Seconds between reachability probes while offline. */
  probeInterval: number;
  /** Give up waiting for the network after this many seconds (longer is usually a real incident). */
  maxOfflineWait: number;
  /**
   * Give up after this many seconds when the endpoint was never reached in this process: a wrong address or
   * a gateway that is not running will not come back by itself, and an hour of silence hides the mistake.
   */
  unreachableWait: number;
  /** Retry errors that are neither known transient nor known fatal (most of them are transient). */
  retryUnknown: boolean;
  /** Prompt for resuming a session cut off by an error; deliberately carries no error detail. */
  resumePrompt: string;
  /**
   * No SDK message for this many seconds while no tool or subagent runs → abort and retry (decisions.md D6).
   */
  stallTimeoutS: number;
  /** The child's own `CLAUDE_CODE_MAX_RETRIES`: small, because flower does the waiting. */
  cliMaxRetries: number;
  /** The child's `API_TIMEOUT_MS` for a request without response headers. */
  apiTimeoutMs: number;
}

/** The defaults (docs/resilience.md). */
export const DEFAULT_RESILIENCE_SETTINGS: Readonly<ResilienceSettings> = Object.freeze({
  enabled: true,
  maxAttempts: 6,
  baseDelay: 4,
  maxDelay: 120,
  probeTimeout: 5,
  probeInterval: 15,
  maxOfflineWait: 3600,
  unreachableWait: 60,
  retryUnknown: true,
  resumePrompt:
    'You were cut off mid-way. Check what is already on disk (and in the workbench, if there is one), ' +
    'then continue from where you stopped; do not start over.',
  stallTimeoutS: 120,
  cliMaxRetries: DEFAULT_CHILD_REQUEST_LIMITS.cliMaxRetries,
  apiTimeoutMs: DEFAULT_CHILD_REQUEST_LIMITS.apiTimeoutMs,
});

type Rule = readonly [test: (value: unknown) => boolean, wanted: string];

const finiteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const atLeast =
  (minimum: number, whole = false) =>
  (value: unknown): boolean =>
    finiteNumber(value) && value >= minimum && (!whole || Number.isInteger(value));
const positive = (value: unknown): boolean => finiteNumber(value) && value > 0;
const flag = (value: unknown): boolean => typeof value === 'boolean';

const RULES: Readonly<Record<keyof ResilienceSettings, Rule>> = {
  enabled: [flag, 'true or false'],
  maxAttempts: [atLeast(1, true), 'a whole number of at least 1'],
  baseDelay: [atLeast(0), 'a number of seconds, 0 or more'],
  maxDelay: [atLeast(0), 'a number of seconds, 0 or more'],
  probeTimeout: [positive, 'a positive number of seconds'],
  probeInterval: [positive, 'a positive number of seconds'],
  maxOfflineWait: [atLeast(0), 'a number of seconds, 0 or more'],
  unreachableWait: [atLeast(0), 'a number of seconds, 0 or more'],
  retryUnknown: [flag, 'true or false'],
  resumePrompt: [(value) => typeof value === 'string' && value.trim() !== '', 'a non-empty text'],
  // At most a day: a longer limit is no watchdog at all, and Node fires a timer past 2^31 ms at once.
  stallTimeoutS: [
    (value) => positive(value) && (value as number) <= 86_400,
    'a positive number of seconds up to 86400',
  ],
  cliMaxRetries: [atLeast(0, true), 'a whole number, 0 or more'],
  apiTimeoutMs: [atLeast(1, true), 'a whole number of milliseconds, at least 1'],
};

/**
 * The defaults with `overrides` applied; keys whose value is `undefined` keep their default and unknown keys
 * are ignored. Throws `FlowerError` `CONFIG_INVALID` with one line naming the first bad setting.
 */
export function resilienceSettings(overrides: Partial<ResilienceSettings> = {}): ResilienceSettings {
  const settings: ResilienceSettings = { ...DEFAULT_RESILIENCE_SETTINGS };
  for (const key of Object.keys(RULES) as (keyof ResilienceSettings)[]) {
    const value: unknown = (overrides as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const [test, wanted] = RULES[key];
    if (!test(value)) {
      throw new FlowerError(
        'CONFIG_INVALID',
        `Resilience setting ${key} must be ${wanted}, got ${typeof value === 'string' || typeof value === 'object' ? JSON.stringify(value) : valueText(value)}.`,
      );
    }
    (settings as unknown as Record<string, unknown>)[key] = value;
  }
  return settings;
}
