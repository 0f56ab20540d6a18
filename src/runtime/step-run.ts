/**
 * `StepRun`: the state of one `Runtime.run()` call — its result, cost ledger, abort controller, pending
 * interrupt and guarded event sink. Everything that used to live on the runtime instance across steps (the
 * reference's watermark and degraded streak, rt §14 #21) lives here, so one step never inherits another's.
 *
 * @module
 */
import type { EventSink, FlowerEvent } from '../events/flower-event.js';
import type { ContextWatermark } from './context-watermark.js';
import { CostLedger } from './cost-ledger.js';
import { newStepResult, type StepResult } from './step-result.js';

/** A human interrupt waiting for the next message boundary; `message` may still be being typed. */
export interface PendingInterrupt {
  message: string | PromiseLike<string>;
}

/** What a step run reports back to its runtime. */
export interface StepRunHooks {
  /** A new session id is known (lineage is written by the hook before the first turn). */
  onSession(sessionId: string): void;
  /** A handoff document was written for this step. */
  onHandoff?(step: string, path: string, sha256: string): void;
  /** The in-flight row should be written to the manifest now. */
  persist(): void;
  /** Failures of sinks and callbacks, recorded and never fatal. */
  uiErrors: string[];
}

/** One `run()` call in progress. */
export class StepRun {
  readonly result: StepResult;
  readonly ledger = new CostLedger();
  /** Aborted by `signal`, a rescue, or a double Ctrl-C: the step ends as `killed-by-signal`. */
  readonly controller = new AbortController();
  /** Set by `Runtime.interrupt()`, taken at the next message boundary. */
  interrupt: PendingInterrupt | null = null;
  /** Largest main-thread context of the current session generation (reset by a handoff). */
  watermark = 0;
  /** The served model was checked against the wanted one (once per step). */
  modelChecked = false;
  /** Handoff bookkeeping of this step; null when handoff is off. */
  handoff: ContextWatermark | null = null;
  #muted = false;

  readonly #sink: EventSink | null;
  readonly #hooks: StepRunHooks;

  constructor(step: string, sink: EventSink | null, hooks: StepRunHooks, startedAt = Date.now() / 1000) {
    this.result = newStepResult(step, startedAt);
    this.#sink = sink;
    this.#hooks = hooks;
  }

  /** True once the step must stop at once. */
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Sends `event` to the caller's sink, stamped with the step; a throwing sink is recorded, never fatal. */
  emit(event: FlowerEvent): void {
    event.step = this.result.step;
    if (this.#sink === null || this.#muted) return;
    try {
      this.#sink(event);
    } catch (error) {
      this.#hooks.uiErrors.push(`event sink: ${errorText(error)}`);
    }
  }

  /** Runs `work` with events held back (the handoff writing turn is not streamed to the UI). */
  async muted<T>(work: () => Promise<T>): Promise<T> {
    this.#muted = true;
    try {
      return await work();
    } finally {
      this.#muted = false;
    }
  }

  /** Records a session id the SDK reported; a new one is passed on at once and the row written. */
  noteSession(sessionId: unknown): void {
    if (typeof sessionId !== 'string' || sessionId === '' || sessionId === this.result.sessionId) return;
    this.result.sessionId = sessionId;
    try {
      this.#hooks.onSession(sessionId);
    } catch (error) {
      this.#hooks.uiErrors.push(`onSession: ${errorText(error)}`);
    }
    this.persist();
  }

  /** Passes on a handoff document just written; a throwing callback is recorded, never fatal. */
  noteHandoff(path: string, sha256: string): void {
    try {
      this.#hooks.onHandoff?.(this.result.step, path, sha256);
    } catch (error) {
      this.#hooks.uiErrors.push(`onHandoff: ${errorText(error)}`);
    }
  }

  /** Copies the ledger into the result and writes the in-flight row. */
  syncCost(): void {
    this.result.costUsd = this.ledger.usd;
    this.persist();
  }

  /** Writes the in-flight row (never throws). */
  persist(): void {
    try {
      this.#hooks.persist();
    } catch (error) {
      this.#hooks.uiErrors.push(`manifest: ${errorText(error)}`);
    }
  }

  /** Records a failure of a callback or sink. */
  recordUiError(what: string, error: unknown): void {
    this.#hooks.uiErrors.push(`${what}: ${errorText(error)}`);
  }
}

/** `Name: message` for an Error, the string otherwise. */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
