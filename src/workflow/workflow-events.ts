/**
 * The events a workflow emits (`step`, `step_end`, `warning`) and the guarded sink they go through: a UI
 * callback that throws must never end a run that may have cost hours (decisions.md D305).
 *
 * @module
 */
import type {
  EventSink,
  FlowerEvent,
  StepEndEvent,
  StepEvent,
  WarningCode,
  WarningEvent,
} from '../events/flower-event.js';
import { errorText } from '../internal/error-text.js';

/**
 * Wraps `sink` so a throw is recorded in `uiErrors` instead of propagating. Returns null for no sink, so
 * callers can still tell "nobody listens" apart.
 */
export function guardSink(sink: EventSink | null | undefined, uiErrors: string[]): EventSink | null {
  if (typeof sink !== 'function') return null;
  return (event: FlowerEvent): void => {
    try {
      sink(event);
    } catch (error) {
      uiErrors.push(`event sink (${event.kind}): ${errorText(error)}`);
    }
  };
}

/** The header event of one attempt: `label` is the step name, or `name#round2` / `name#retry1` on reruns. */
export function stepEvent(
  label: string,
  fields: { index: number; total: number; resumed: boolean; woke: number },
): StepEvent {
  return { kind: 'step', text: label, at: now(), step: label, name: label, ...fields };
}

/** The end of a step, after all its attempts; `costUsd` sums the attempts (judges not included). */
export function stepEndEvent(
  name: string,
  fields: { ok: boolean; error: string | null; costUsd: number; attempts: number },
): StepEndEvent {
  return { kind: 'step_end', text: fields.error ?? '', at: now(), step: name, name, ...fields };
}

/** A one-line warning shown on screen. */
export function warningEvent(code: WarningCode, text: string, step: string | null): WarningEvent {
  return { kind: 'warning', text, at: now(), step, code, detail: text };
}

function now(): number {
  return Date.now() / 1000;
}
