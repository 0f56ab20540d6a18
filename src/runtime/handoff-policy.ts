/**
 * `HandoffPolicy`: when a session has used so much of its context window that it must write a handoff
 * document and pass the work to a new session (docs/handoff.md). flower hands
 * off instead of letting the CLI auto-compact, so every context drop has one known cause and the successor
 * starts from a document the old session wrote while it still had everything in view.
 *
 * @module
 */
import type { Env } from '../config/process-environment.js';
import { FlowerError } from '../errors.js';
import { defaultWindow } from './default-window.js';

/** The smallest margin kept free below the window for the writing turn. */
export const MIN_ROOM = 50_000;
/** The lowest threshold: a window too small for the margin still gets this much room to work in. */
export const MIN_THRESHOLD = 10_000;
/** How far below the threshold the "near" notice comes. */
export const WARN_BEFORE = 20_000;
/** The lowest point for the "near" notice. */
export const MIN_WARN_AT = 1_000;
/** The default runaway brake: at most this many handoffs in one step. */
export const DEFAULT_MAX_GENERATIONS = 8;

/** Options of {@link HandoffPolicy}; every field has a default. */
export interface HandoffPolicyOptions {
  /** Hand off at all (true). Off: the CLI's own auto-compact stays the fallback. */
  enabled?: boolean;
  /** Context window in tokens; {@link defaultWindow} of `env` by default. */
  window?: number;
  /** Tokens kept free below the window; 0 (default) means proportional: max(50,000, 25 % of the window). */
  headroom?: number;
  /** Runaway brake: the most handoffs one step may make (8). */
  maxGenerations?: number;
  /** For the default window: `FLOWER_WINDOW`, `CFG/.windows`, the model name. The process environment by default. */
  env?: Env;
}

/**
 * The handoff thresholds of one window. `room = headroom > 0 ? headroom : max(50_000, floor(0.25 · window))`,
 * `at = max(10_000, window − room)`, `warnAt = max(1_000, at − 20_000)`.
 *
 * Why proportional: the documented default was a fixed 50,000 (200K → hand off at 150K). On a 1M window that
 * put the threshold at 950K, where the writing turn itself no longer fit: 7 of 8 generations were empty,
 * degraded handoffs, for $3,021 (the reference's measurement). 25 % keeps 200K → 150K and gives 1M → 750K.
 * The margin must exceed what auto-compact reserves (it fires at window − 33K, measured 200K → 167K) because
 * writing the handoff takes one more turn on top of the context that triggered it.
 */
export class HandoffPolicy {
  /** Hand off at all. */
  readonly enabled: boolean;
  /** The context window in tokens. */
  readonly window: number;
  /** The headroom asked for; 0 = proportional. */
  readonly headroom: number;
  /** Tokens kept free below the window for the writing turn. */
  readonly room: number;
  /** The threshold: main-thread context at or above this makes a handoff due. */
  readonly at: number;
  /** Where the one "near" notice per generation comes. */
  readonly warnAt: number;
  /** The most handoffs one step may make. */
  readonly maxGenerations: number;

  /** @throws FlowerError `CONFIG_INVALID` naming the first bad option. */
  constructor(options: HandoffPolicyOptions = {}) {
    const { enabled = true, headroom = 0, maxGenerations = DEFAULT_MAX_GENERATIONS } = options;
    if (typeof enabled !== 'boolean') invalid('enabled', 'true or false', enabled);
    if (options.window !== undefined && !(Number.isSafeInteger(options.window) && options.window > 0)) {
      invalid('window', 'a positive whole number of tokens', options.window);
    }
    if (!(Number.isSafeInteger(headroom) && headroom >= 0)) {
      invalid('headroom', 'a whole number of tokens, 0 or more', headroom);
    }
    if (!(Number.isSafeInteger(maxGenerations) && maxGenerations >= 1)) {
      invalid('maxGenerations', 'a whole number of at least 1', maxGenerations);
    }
    this.enabled = enabled;
    this.window = options.window ?? defaultWindow(options.env === undefined ? {} : { env: options.env });
    this.headroom = headroom;
    this.maxGenerations = maxGenerations;
    this.room = headroom > 0 ? headroom : Math.max(MIN_ROOM, Math.floor(0.25 * this.window));
    this.at = Math.max(MIN_THRESHOLD, this.window - this.room);
    this.warnAt = Math.max(MIN_WARN_AT, this.at - WARN_BEFORE);
  }
}

function invalid(option: string, wanted: string, value: unknown): never {
  throw new FlowerError(
    'CONFIG_INVALID',
    `Handoff setting ${option} must be ${wanted}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}.`,
  );
}
