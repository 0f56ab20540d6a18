/**
 * `StepOutcome`: how a step ended — or that it has not ended yet — as a discriminated union on
 * `StepResult.outcome`. Code that decides what happens next switches on its `kind` instead of comparing or
 * parsing error strings. The string form (`StepResult.error`, the manifest's `error`) is derived from it by
 * {@link outcomeError} alone, so the strings on disk are exactly what they were before the union existed.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import type { ErrorKind } from '../events/flower-event.js';
import { budgetError, type BudgetScope } from './budget.js';
import { classify } from './classify-error.js';
import type { HandoffStop } from './context-watermark.js';
import { gaveUpText } from './resilience.js';
import { stallError } from './stall-watchdog.js';
import type { StepResult } from './step-result.js';

/** `error` of a step a human interrupt stopped and that could not resume (no session yet). */
export const INTERRUPTED = 'interrupted-by-human';
/** `error` of an attempt stopped because its context reached the handoff threshold (never a step's last). */
export const HANDOFF_DUE = 'context-full-handoff';
/** `error` of a step stopped by a signal, a double Ctrl-C or an aborted `signal`. */
export const KILLED = 'killed-by-signal';

/** How a step ended; `unfinished` while it runs. */
export type StepOutcome =
  /** Still running (or a new attempt just began): the row of a running step says neither ok nor an error. */
  | { readonly kind: 'unfinished' }
  /** The agent finished its turn without an error. */
  | { readonly kind: 'ok' }
  /** Stopped from outside: a signal, a double Ctrl-C or an aborted `signal`. The session stays resumable. */
  | { readonly kind: 'killed' }
  /** A human interrupt stopped the attempt; the run loop resumes it unless there is no session yet. */
  | { readonly kind: 'interrupted' }
  /** The context reached the handoff threshold; the run loop hands off to a successor session. */
  | { readonly kind: 'handoff-due' }
  /** The stall watchdog cut a silent stream after `idleS` seconds; transient, so it is retried. */
  | { readonly kind: 'stalled'; readonly idleS: number }
  /** A budget cap is used up: the step's own or the whole run's. A retry cannot help. */
  | { readonly kind: 'budget'; readonly scope: BudgetScope }
  /**
   * Any other failure: an error result, a thrown error, a handoff that could not go on, a prompt too long
   * for the model. `errorKind` says whether a retry could help; `message` is the failure in English: the
   * error's own text, or flower's diagnosis when `cause` names one (whose line in the runtime's language
   * is `StepResult.error`).
   */
  | {
      readonly kind: 'error';
      readonly errorKind: ErrorKind;
      readonly message: string;
      readonly cause?: ErrorCause;
    };

/** A failure flower diagnosed itself, kept as figures so its line can be written in any language. */
export type ErrorCause =
  /** The first message does not fit the model: `refusal` is what the model's side said. */
  | { readonly kind: 'prompt-too-long'; readonly refusal: string }
  /** The network stayed down past `waitS` after the attempt failed with `error`. */
  | {
      readonly kind: 'offline';
      readonly error: string;
      readonly waitS: number;
      readonly neverReached: boolean;
    }
  /** The handoff could not go on usefully: too many, or too many degraded in a row. */
  | { readonly kind: 'handoff-stopped'; readonly stop: HandoffStop };

/** The outcome of an attempt or step once it has ended. */
export type EndedOutcome = Exclude<StepOutcome, { kind: 'unfinished' }>;

/** The failure variant of {@link StepOutcome}. */
export type ErrorOutcome = Extract<StepOutcome, { kind: 'error' }>;

/** The SDK's answer to resuming a session the store does not hold: no retry can bring it back. */
const MISSING_SESSION = /No conversation found with session ID/i;

/**
 * The `error` outcome for `message`, classified once where the failure is recorded: a session the store does
 * not hold is fatal, anything else is what {@link classify} says of the text.
 */
export function errorOutcome(message: string): ErrorOutcome {
  const errorKind = MISSING_SESSION.test(message) ? 'fatal' : classify(message);
  return { kind: 'error', errorKind, message };
}

/**
 * The `error` outcome of a failure flower diagnosed (`cause`); `errorKind` defaults to what
 * {@link errorOutcome} says of the English diagnosis.
 */
export function diagnosedOutcome(cause: ErrorCause, errorKind?: ErrorKind): ErrorOutcome {
  const outcome = errorOutcome(causeText(cause, 'en'));
  return { ...outcome, errorKind: errorKind ?? outcome.errorKind, cause };
}

/** The line of a diagnosed failure in `lang`: the one place these stored texts are worded. */
function causeText(cause: ErrorCause, lang: Lang): string {
  switch (cause.kind) {
    case 'prompt-too-long':
      return uiText('rt.promptTooLong', { e: cause.refusal.slice(0, 200) }, lang);
    case 'offline':
      return `${cause.error} | ${gaveUpText(cause.waitS, lang, cause.neverReached)}`;
    case 'handoff-stopped': {
      const { stop } = cause;
      const numbers = { win: tokens(stop.window), at: tokens(stop.threshold), room: tokens(stop.room) };
      const key = stop.reason === 'runaway' ? 'ho.stop.runaway' : 'ho.stop.degraded';
      return uiText(key, { ...numbers, n: stop.count }, lang);
    }
    default:
      return cause satisfies never;
  }
}

function tokens(count: number): string {
  return count.toLocaleString('en-US');
}

/**
 * The string form of `outcome`: `StepResult.error` and the manifest's `error`. Null while unfinished and
 * when ok; otherwise the strings flower has always written (`killed-by-signal`, `stall: no SDK message for
 * 120 s`, `error_max_budget_usd: run budget exhausted`, the error's own text, or a diagnosis in `lang`).
 */
export function outcomeError(outcome: StepOutcome, lang: Lang = 'en'): string | null {
  switch (outcome.kind) {
    case 'unfinished':
    case 'ok':
      return null;
    case 'killed':
      return KILLED;
    case 'interrupted':
      return INTERRUPTED;
    case 'handoff-due':
      return HANDOFF_DUE;
    case 'stalled':
      return stallError(outcome.idleS);
    case 'budget':
      return budgetError(outcome.scope);
    case 'error':
      return outcome.cause === undefined ? outcome.message : causeText(outcome.cause, lang);
    default:
      return outcome satisfies never;
  }
}

/**
 * Records `outcome` on `result` with the fields derived from it (`ok`, `error` in `lang`). Every change of a
 * step's outcome goes through here (a step's own through `StepRun.record`), so the three never disagree.
 */
export function recordOutcome(result: StepResult, outcome: StepOutcome, lang: Lang = 'en'): void {
  result.outcome = outcome;
  result.ok = outcome.kind === 'ok';
  result.error = outcomeError(outcome, lang);
}
