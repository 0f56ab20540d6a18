/**
 * The knobs of flower's resilience layer (runtime.md §6, decisions 6, 22, 30). flower owns retries and the
 * stall watchdog, so the Claude Code child gets only a small retry count and a finite request timeout.
 *
 * @module
 */

/** Every resilience setting, with the defaults in {@link DEFAULT_RESILIENCE_SETTINGS}. */
export interface ResilienceSettings {
  /** Off: one attempt per step, no waiting for the network. */
  enabled: boolean;
  /** Attempts per step, the first included. */
  maxAttempts: number;
  /** Seconds before the first retry; doubled per attempt, ±25 % jitter (about 4, 8, 16, 32, 64 s). */
  baseDelay: number;
  /** Cap of one backoff wait in seconds; with the defaults it binds only from attempt 6 (decision 22). */
  maxDelay: number;
  /** Seconds for one reachability probe (DNS + TCP connect, no HTTP, no cost). */
  probeTimeout: number;
  /** Seconds between reachability probes while offline. */
  probeInterval: number;
  /** Give up waiting for the network after this many seconds (longer is usually a real incident). */
  maxOfflineWait: number;
  /** Retry errors that are neither known transient nor known fatal (most of them are transient). */
  retryUnknown: boolean;
  /** Prompt for resuming a session cut off by an error; deliberately carries no error detail. */
  resumePrompt: string;
  /** No SDK message for this many seconds while no tool or subagent runs → abort and retry (decision 6). */
  stallTimeoutS: number;
  /** The child's own `CLAUDE_CODE_MAX_RETRIES`: small, because flower does the waiting. */
  cliMaxRetries: number;
  /** The child's `API_TIMEOUT_MS` for a request without response headers. */
  apiTimeoutMs: number;
}

/** The defaults (runtime.md §13, api.md §6 item 42). */
export const DEFAULT_RESILIENCE_SETTINGS: Readonly<ResilienceSettings> = Object.freeze({
  enabled: true,
  maxAttempts: 6,
  baseDelay: 4,
  maxDelay: 120,
  probeTimeout: 5,
  probeInterval: 15,
  maxOfflineWait: 3600,
  retryUnknown: true,
  resumePrompt:
    'You were cut off mid-way. Check what is already on disk (and in the workbench, if there is one), ' +
    'then continue from where you stopped; do not start over.',
  stallTimeoutS: 120,
  cliMaxRetries: 2,
  apiTimeoutMs: 300_000,
});
