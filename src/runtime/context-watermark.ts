/**
 * `ContextWatermark`: the handoff bookkeeping of one step, fed by the runtime's attempt loop
 * (docs/handoff.md, docs/runtime.md). It holds the highest main-thread context of the
 * current generation, says when a handoff is near or due, exempts the writing turn, and counts handoffs and
 * consecutive degraded ones to stop a step that can no longer hand off usefully.
 *
 * Create one per `run()` call: the counters belong to one step (the reference kept the degraded streak on
 * the instance, across steps — decisions.md D321).
 *
 * @module
 */
import type { HandoffPolicy } from './handoff-policy.js';

/** What one context reading means: the one "near" notice of a generation, a due handoff, or nothing. */
export type WatermarkSignal = 'near' | 'due';

/** Two degraded handoffs in a row, or the runaway brake (more handoffs than `maxGenerations`). */
export type HandoffStopReason = 'degraded' | 'runaway';

/**
 * The step must stop instead of starting a successor, with the figures of its diagnosis: `count` handoffs
 * (in all for `runaway`, degraded in a row for `degraded`) under the policy's `window`, `threshold` and
 * `room`. The line for the human is written from them where the step's error is recorded.
 */
export interface HandoffStop {
  verdict: 'stop';
  reason: HandoffStopReason;
  count: number;
  window: number;
  threshold: number;
  room: number;
}

/** How many degraded handoffs in a row stop a step: the second one shows there is no room to write one. */
export const DEGRADED_LIMIT = 2;

/** The watermark and generation counters of one step under one {@link HandoffPolicy}. */
export class ContextWatermark {
  /** The thresholds. */
  readonly policy: HandoffPolicy;
  /**
   * True while the handoff itself is being written. That turn starts above the threshold by definition, so
   * without the exemption it was cut at its first message and every handoff degraded (the reference's
   * first live run degraded both generations; offline fakes that stubbed the attempt missed it). Prefer
   * {@link ContextWatermark.whileWriting}, which clears the flag in `finally`.
   */
  writing = false;
  #value = 0;
  #warned = false;
  #generation = 0;
  #degradedInARow = 0;

  constructor(policy: HandoffPolicy) {
    this.policy = policy;
  }

  /** The highest main-thread context seen in this generation (0 after {@link ContextWatermark.reset}). */
  get value(): number {
    return this.#value;
  }

  /** Handoffs made in this step so far (the number of retired sessions). */
  get generation(): number {
    return this.#generation;
  }

  /** Degraded handoffs since the last complete one. */
  get degradedInARow(): number {
    return this.#degradedInARow;
  }

  /** True when a handoff is due: enabled, not writing one, and the watermark at or above the threshold. */
  get due(): boolean {
    return this.policy.enabled && !this.writing && this.#value >= this.policy.at;
  }

  /**
   * Takes the main-thread context of one message (`input + cache_read + cache_creation` of the latest
   * assistant message; subagent usage never counts). Returns `'due'` for every reading while a handoff is
   * due, `'near'` once per generation when the watermark first reaches `warnAt`, else `null`. A reading that
   * jumps straight past the threshold is `'due'` and uses up the notice. While writing, or with the policy
   * off, the watermark still rises but nothing is signalled.
   */
  note(tokens: number): WatermarkSignal | null {
    if (Number.isFinite(tokens) && tokens > this.#value) this.#value = Math.floor(tokens);
    if (!this.policy.enabled || this.writing) return null;
    if (this.#value >= this.policy.at) {
      this.#warned = true;
      return 'due';
    }
    if (this.#value >= this.policy.warnAt && !this.#warned) {
      this.#warned = true;
      return 'near';
    }
    return null;
  }

  /**
   * Forgets the watermark and the "near" notice. Call at every step start (else a step inherits the last
   * step's 150K reading and hands off at once) and when a new generation begins.
   */
  reset(): void {
    this.#value = 0;
    this.#warned = false;
  }

  /** Runs the writing turn with {@link ContextWatermark.writing} set, clearing it however `work` ends. */
  async whileWriting<T>(work: () => Promise<T>): Promise<T> {
    this.writing = true;
    try {
      return await work();
    } finally {
      this.writing = false;
    }
  }

  /**
   * Counts one handoff just written (`degraded`: the document is the mechanical fallback). Returns a
   * {@link HandoffStop} when the step must stop instead of starting a successor: `runaway` once the step
   * has made `maxGenerations` handoffs (the threshold is likely below what a new session needs just to
   * start, so handoffs would never end; this diagnosis wins when both apply), or `degraded` after
   * {@link DEGRADED_LIMIT} degraded handoffs in a row. Otherwise a new generation begins: the watermark is
   * reset and `null` is returned.
   */
  noteHandoff(degraded: boolean): HandoffStop | null {
    this.#generation += 1;
    this.#degradedInARow = degraded ? this.#degradedInARow + 1 : 0;
    const { window, at: threshold, room, maxGenerations } = this.policy;
    const figures = { window, threshold, room };
    if (this.#generation >= maxGenerations) {
      return { verdict: 'stop', reason: 'runaway', count: this.#generation, ...figures };
    }
    if (this.#degradedInARow >= DEGRADED_LIMIT) {
      return { verdict: 'stop', reason: 'degraded', count: this.#degradedInARow, ...figures };
    }
    this.reset();
    return null;
  }
}
