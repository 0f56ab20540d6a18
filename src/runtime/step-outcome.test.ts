import { describe, expect, test } from 'vitest';
import { manifestRow } from './manifest.js';
import { Runtime } from './runtime.js';
import { errorOutcome, outcomeError, recordOutcome, type StepOutcome } from './step-outcome.js';
import { newStepResult } from './step-result.js';

// Keyed by kind, so a new variant does not compile until its string is pinned here. These are the strings
// manifests on disk already hold: they must never change.
const PINNED: Record<StepOutcome['kind'], ReadonlyArray<[StepOutcome, string | null]>> = {
  unfinished: [[{ kind: 'unfinished' }, null]],
  ok: [[{ kind: 'ok' }, null]],
  killed: [[{ kind: 'killed' }, 'killed-by-signal']],
  interrupted: [[{ kind: 'interrupted' }, 'interrupted-by-human']],
  'handoff-due': [[{ kind: 'handoff-due' }, 'context-full-handoff']],
  stalled: [
    [{ kind: 'stalled', idleS: 120.4 }, 'stall: no SDK message for 120 s'],
    [{ kind: 'stalled', idleS: 0 }, 'stall: no SDK message for 0 s'],
  ],
  budget: [
    [{ kind: 'budget', scope: 'step' }, 'error_max_budget_usd: step budget exhausted'],
    [{ kind: 'budget', scope: 'run' }, 'error_max_budget_usd: run budget exhausted'],
  ],
  error: [
    [
      { kind: 'error', errorKind: 'fatal', message: 'api_error 401: Invalid API key' },
      'api_error 401: Invalid API key',
    ],
    [
      { kind: 'error', errorKind: 'unknown', message: 'no result from the agent' },
      'no result from the agent',
    ],
  ],
};
const CASES = Object.values(PINNED).flat();

describe('outcomeError', () => {
  test.each(CASES)('%j is written as %j', (outcome, text) => {
    expect(outcomeError(outcome)).toBe(text);
  });

  test('the Runtime constants are the strings of their outcomes', () => {
    expect(Runtime.KILLED).toBe(outcomeError({ kind: 'killed' }));
    expect(Runtime.INTERRUPTED).toBe(outcomeError({ kind: 'interrupted' }));
    expect(Runtime.HANDOFF_DUE).toBe(outcomeError({ kind: 'handoff-due' }));
    expect(outcomeError({ kind: 'stalled', idleS: 3 })?.startsWith(Runtime.STALL_PREFIX)).toBe(true);
  });
});

describe('recordOutcome', () => {
  test.each(CASES)('%j sets ok, error and the manifest row alike', (outcome, text) => {
    const result = newStepResult('work', 1000);
    recordOutcome(result, outcome);
    expect(result.outcome).toBe(outcome);
    expect(result.ok).toBe(outcome.kind === 'ok');
    expect(result.error).toBe(text);
    expect(manifestRow(result, 'run-a')).toMatchObject({ ok: outcome.kind === 'ok', error: text });
  });

  test('a later outcome replaces an earlier one entirely', () => {
    const result = newStepResult('work', 1000);
    recordOutcome(result, { kind: 'ok' });
    recordOutcome(result, { kind: 'killed' });
    expect(result).toMatchObject({ ok: false, error: 'killed-by-signal', outcome: { kind: 'killed' } });
    recordOutcome(result, { kind: 'unfinished' });
    expect(result).toMatchObject({ ok: false, error: null, outcome: { kind: 'unfinished' } });
  });
});

describe('errorOutcome', () => {
  test('keeps the message verbatim', () => {
    const message = 'api_error 529: Overloaded\nsecond line';
    expect(errorOutcome(message)).toEqual({ kind: 'error', errorKind: 'transient', message });
  });

  test('classifies the text once, as a retry would', () => {
    expect(errorOutcome('api_error 401: Invalid API key').errorKind).toBe('fatal');
    expect(errorOutcome('connect ECONNREFUSED 127.0.0.1:9').errorKind).toBe('transient');
    expect(errorOutcome('something odd').errorKind).toBe('unknown');
  });

  test('a session the store does not hold is fatal: no retry can bring it back', () => {
    expect(errorOutcome('No conversation found with session ID: gone').errorKind).toBe('fatal');
    expect(errorOutcome('error_during_execution: no conversation found with session id x').errorKind).toBe(
      'fatal',
    );
  });
});
