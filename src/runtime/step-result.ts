/**
 * `StepResult`: what one `Runtime.run()` call produced (docs/runtime.md). One manifest row each.
 *
 * @module
 */
import type { CheckRecord } from './check-record.js';
import type { StepOutcome } from './step-outcome.js';

/** The outcome of one step, accumulated over its attempts. */
export interface StepResult {
  /** The step name (`stepName` or the spec's name). */
  step: string;
  /** The latest live session (the successor after handoffs). */
  sessionId: string | null;
  /** True exactly when `outcome.kind` is `ok`. */
  ok: boolean;
  /** Dollars spent in this process on this step, over all attempts. */
  costUsd: number;
  numTurns: number;
  /** Main-thread prose only: no subagent text, no prompts, no synthetic API errors. */
  text: string;
  /** The last failure reason: `outcome` as a string (`outcomeError(outcome)`); null when ok or unfinished. */
  error: string | null;
  /** How the step ended, as a union to switch on; `ok` and `error` are derived from it. */
  outcome: StepOutcome;
  /** Epoch seconds. */
  startedAt: number;
  /** Epoch seconds; 0 while unfinished. */
  endedAt: number;
  /** Attempts made, the first included (interrupts and handoffs are not counted). */
  attempts: number;
  /** Synthetic API errors and handoff degradation notes; never part of `text`. */
  errors: string[];
  /** True once any mid-step resume happened. */
  resumed: boolean;
  /** Session ids retired by handoffs, in order. */
  retired: string[];
  /** Largest main-thread context seen in the current session generation, in tokens. */
  context: number;
  /**
   * On a judge's run: what flower found running the goal's checks itself, and the conclusion it recorded
   * (docs/goal-checks.md). Absent on every other step.
   */
  checks?: CheckRecord;
  /** Set when a budget stopped the step: which cap, its size and what had been spent against it. */
  budgetStop?: { scope: 'step' | 'run'; capUsd: number; spentUsd: number } | null;
  /**
   * Where this process's spend on the step went, responses priced as stored (list or the user's prices):
   * the main thread and each subagent with the dispatch that started it. Absent until a response is stored.
   */
  costBy?: StepCostBy;
}

/** The attribution of one step's responses (the manifest's `cost_by`). */
export interface StepCostBy {
  mainUsd: number;
  subagents: Array<{ agent: string; type: string; description: string; task: string; usd: number }>;
}

/** A fresh, unfinished result for `step` started at `startedAt` (epoch seconds). */
export function newStepResult(step: string, startedAt: number): StepResult {
  return {
    step,
    sessionId: null,
    ok: false,
    costUsd: 0,
    numTurns: 0,
    text: '',
    error: null,
    outcome: { kind: 'unfinished' },
    startedAt,
    endedAt: 0,
    attempts: 0,
    errors: [],
    resumed: false,
    retired: [],
    context: 0,
  };
}

/** Seconds the step took, to 2 decimals; 0 while unfinished (never negative). */
export function durationS(result: StepResult): number {
  if (result.endedAt === 0) return 0;
  return Math.max(0, Math.round((result.endedAt - result.startedAt) * 100) / 100);
}
