import { describe, expect, test } from 'vitest';
import { manifestRow } from './manifest.js';
import { Runtime } from './runtime.js';
import { uiText } from '../config/ui-text.js';
import type { HandoffStop } from './context-watermark.js';
import { gaveUpText } from './resilience.js';
import {
  diagnosedOutcome,
  errorOutcome,
  outcomeError,
  recordOutcome,
  type StepOutcome,
} from './step-outcome.js';
import { newStepResult } from './step-result.js';

const HANDOFF_STOP: HandoffStop = {
  verdict: 'stop',
  reason: 'runaway',
  count: 8,
  window: 200_000,
  threshold: 150_000,
  room: 50_000,
};

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
    [
      diagnosedOutcome({ kind: 'prompt-too-long', refusal: 'Prompt is too long' }),
      'The first message is too long for the model (Prompt is too long); nothing was handed over or retried. Shorten the input, or put the long part in a file and point to it.',
    ],
    [
      diagnosedOutcome({
        kind: 'offline',
        error: 'api_error: fetch failed',
        waitS: 3600,
        neverReached: false,
      }),
      'api_error: fetch failed | network not back within 60 min',
    ],
    [
      diagnosedOutcome({ kind: 'offline', error: 'x', waitS: 60, neverReached: true }),
      'x | the API endpoint was never reachable; stopped after 1 min',
    ],
    [
      diagnosedOutcome({ kind: 'handoff-stopped', stop: HANDOFF_STOP }),
      'Stopped after 8 handoffs in one step (window 200,000 tokens, handoff at 150,000): each new session fills up again at once, so handoffs would never end. The threshold is probably below what a fresh session needs to start; check that --window, FLOWER_WINDOW or the value learned in .windows is the real window, or use a smaller headroom.',
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

describe('diagnosedOutcome', () => {
  test('keeps the figures and the English line, and words the stored error in the language asked for', () => {
    const outcome = diagnosedOutcome({
      kind: 'offline',
      error: 'api_error: fetch failed',
      waitS: 60,
      neverReached: false,
    });
    expect(outcome.message).toBe(`api_error: fetch failed | ${gaveUpText(60)}`);
    expect(outcomeError(outcome, 'zh')).toBe(`api_error: fetch failed | ${gaveUpText(60, 'zh')}`);
    const stopped = diagnosedOutcome({
      kind: 'handoff-stopped',
      stop: { ...HANDOFF_STOP, reason: 'degraded', count: 2 },
    });
    const result = newStepResult('work', 1);
    recordOutcome(result, stopped, 'zh');
    expect(result.error).toBe(
      uiText('ho.stop.degraded', { n: 2, win: '200,000', at: '150,000', room: '50,000' }, 'zh'),
    );
    expect(result.error).not.toBe(stopped.message);
  });

  test('classifies the English line as errorOutcome would, unless the caller knows the kind', () => {
    const cause = {
      kind: 'offline',
      error: 'api_error: fetch failed',
      waitS: 60,
      neverReached: false,
    } as const;
    expect(diagnosedOutcome(cause).errorKind).toBe(
      errorOutcome(outcomeError(diagnosedOutcome(cause)) ?? '').errorKind,
    );
    expect(diagnosedOutcome(cause, 'fatal').errorKind).toBe('fatal');
  });
});
