/**
 * `StepRun`: the state of one `Runtime.run()` call — its result, cost ledger, abort controller, pending
 * interrupt and guarded event sink. Everything that used to live on the runtime instance across steps (the
 * reference's watermark and degraded streak, decisions.md D321) lives here, so one step never inherits
 * another's.
 *
 * @module
 */
import type { Lang } from '../config/ui-text.js';
import type { EventSink } from '../events/flower-event.js';
import type { ContextWatermark } from './context-watermark.js';
import { CostAttribution } from './cost-breakdown.js';
import { CostLedger } from './cost-ledger.js';
import { describeEvent, isNotice, type Emitted } from './describe-event.js';
import { recordOutcome, type StepOutcome } from './step-outcome.js';
import type { PriceTable } from './price-table.js';
import type { BudgetCrossing } from './budget.js';
import type { BudgetGate } from '../guards/budget-guard.js';
import { newStepResult, type StepResult } from './step-result.js';
import { errorText } from '../internal/error-text.js';

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
  /**
   * The language of what leaves the step in words: its notices' display lines and its diagnosed errors
   * (`'en'` by default). The attempt loop itself deals in figures only.
   */
  lang?: Lang;
  /** The prices the step's cost is figured at; the list alone by default. */
  prices?: PriceTable;
}

/**
 * Cost-only manifest writes (one per stored API response) come at most this often; a later one waits for
 * the end of the interval. Each write takes a lock, rewrites the whole manifest and fsyncs, which cost about
 * 7% of a fast turn. A kill loses nothing by it: the row exists from the session's first turn, and the next
 * process that resumes the session prices the responses the row missed from the session store.
 */
export const COST_WRITE_INTERVAL_MS = 1000;

/** One `run()` call in progress. */
export class StepRun {
  readonly result: StepResult;
  readonly ledger: CostLedger;
  /** The same responses as {@link ledger}, attributed to the main thread and each subagent (`cost_by`). */
  readonly attribution: CostAttribution;
  /** Aborted by `signal`, a rescue, or a double Ctrl-C: the step ends as `killed-by-signal`. */
  readonly controller = new AbortController();
  /** Set by `Runtime.interrupt()`, taken at the next message boundary. */
  interrupt: PendingInterrupt | null = null;
  /** Largest main-thread context of the current session generation (reset by a handoff). */
  watermark = 0;
  /** The gate the budget guards ask before each tool call (set by the attempt loop when a cap is set). */
  budgetGate: BudgetGate | null = null;
  /** The cap the projected spend crossed in this step: nothing new starts once it is set. */
  budgetStop: (BudgetCrossing & { reason: string }) | null = null;
  /** The budget gate ended the main thread's turn: the attempt ends as a budget stop. */
  budgetHalted = false;
  /** Dispatches whose worker the network cut off (tool-use ids): stored results settled (docs/decisions.md D344). */
  readonly faultedDispatches = new Set<string>();
  /** The API error that cut off a worker in the current attempt, or null: the attempt ends transient. */
  workerFault: string | null = null;
  /** Closes the current attempt's query (set while one runs). */
  stopAttempt: (() => void) | null = null;
  /** The Claude Code child of the latest attempt, or null. */
  childPid: number | null = null;
  /** The API said a usage limit is reached during the last attempt, and when it resets; else null. */
  usageLimit: { resetsAt: number; limit: string | null } | null = null;
  /** The served model was checked against the wanted one (once per step). */
  modelChecked = false;
  /** Handoff bookkeeping of this step; null when handoff is off. */
  handoff: ContextWatermark | null = null;
  #muted = false;

  readonly #sink: EventSink | null;
  readonly #hooks: StepRunHooks;
  /** When the row was last written (`performance.now()`), for {@link StepRun.syncCost}'s interval. */
  #lastWrite = Number.NEGATIVE_INFINITY;
  /** The write {@link StepRun.syncCost} put off to the end of the interval, if any. */
  #costTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * The step's language, for the few words the loop hands on as they are: a usage-limit line and the budget
   * gate's reason to the model. Notices are worded by the describer instead.
   */
  get lang(): Lang {
    return this.#hooks.lang ?? 'en';
  }

  constructor(step: string, sink: EventSink | null, hooks: StepRunHooks, startedAt = Date.now() / 1000) {
    this.result = newStepResult(step, startedAt);
    this.ledger = new CostLedger(0, hooks.prices);
    this.attribution = new CostAttribution(hooks.prices === undefined ? {} : { prices: hooks.prices });
    this.#sink = sink;
    this.#hooks = hooks;
  }

  /** True once the step must stop at once. */
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /**
   * Sends `event`, made complete by its maker (its `step` included), to the caller's sink unchanged: a sink
   * may keep it, so nothing here or later writes to it. A runtime notice is first given its display line
   * ({@link describeEvent}), as a new event. A throwing sink is recorded, never fatal.
   */
  emit(event: Emitted): void {
    if (this.#sink === null || this.#muted) return;
    try {
      this.#sink(isNotice(event) ? describeEvent(event, this.#hooks.lang ?? 'en') : event);
    } catch (error) {
      this.#hooks.uiErrors.push(`event sink: ${errorText(error)}`);
    }
  }

  /** Records how the step (or its current attempt) ended, its `error` worded in the step's language. */
  record(outcome: StepOutcome): void {
    recordOutcome(this.result, outcome, this.#hooks.lang ?? 'en');
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

  /** A new attempt starts with no worker cut off. */
  clearWorkerFault(): void {
    this.workerFault = null;
  }

  /**
   * A dispatch of the current attempt came back with its worker cut off by the network: noted, and the
   * attempt's child ended (docs/decisions.md D344). The promise never settles while an attempt runs, so the
   * hook waiting on it never answers the child and no further request is sent.
   */
  workerCutOff(toolUseId: string, error: string): Promise<void> {
    this.faultedDispatches.add(toolUseId);
    this.workerFault = error;
    const stop = this.stopAttempt;
    if (stop === null) return Promise.resolve();
    stop();
    return new Promise<void>(() => undefined);
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

  /**
   * Copies the ledger into the result and writes the in-flight row: at once when the last write is at least
   * {@link COST_WRITE_INTERVAL_MS} old, otherwise once at the end of that interval (unless the step has
   * ended by then, when the runtime has written the finished row).
   */
  syncCost(): void {
    this.result.costUsd = this.ledger.usd;
    const since = performance.now() - this.#lastWrite;
    if (since >= COST_WRITE_INTERVAL_MS) {
      this.persist();
      return;
    }
    if (this.#costTimer !== null) return;
    this.#costTimer = setTimeout(() => {
      this.#costTimer = null;
      if (this.result.endedAt === 0) this.persist();
    }, COST_WRITE_INTERVAL_MS - since);
    // A pending cost write must not keep a finished process alive.
    this.#costTimer.unref?.();
  }

  /** Writes the in-flight row now (never throws); a cost write put off by `syncCost` is folded into it. */
  persist(): void {
    if (this.#costTimer !== null) {
      clearTimeout(this.#costTimer);
      this.#costTimer = null;
    }
    this.#lastWrite = performance.now();
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
