import { describe, expect, test } from 'vitest';
import { humanDuration, uiText } from '../config/ui-text.js';
import { emptyLoadReport } from '../session/load-report.js';
import { trimReport } from '../session/trim-report.js';
import { describeEvent, isNotice, type RuntimeNotice } from './describe-event.js';

const base = { at: 1, step: 'work' };

/** Each notice with the line the catalogue gives for its figures, in English and Chinese. */
const cases: [string, RuntimeNotice, (lang: 'en' | 'zh') => string][] = [
  [
    'a retry after an error',
    {
      ...base,
      kind: 'retry',
      attempt: 2,
      cause: 'error',
      errorKind: 'transient',
      delayS: 30,
      reason: 'api_error 529: overloaded\nsecond line',
      maxAttempts: 6,
    },
    (lang) =>
      uiText(
        'rt.retry',
        {
          n: 2,
          kind: 'transient',
          why: 'api_error 529: overloaded',
          next: 3,
          max: 6,
          delay: humanDuration(30, lang),
        },
        lang,
      ),
  ],
  [
    'an interrupt resumed with words',
    { ...base, kind: 'retry', attempt: 1, cause: 'interrupt', errorKind: null, delayS: 0, withMessage: true },
    (lang) => uiText('int.resumeSaid', {}, lang),
  ],
  [
    'an interrupt resumed without words',
    {
      ...base,
      kind: 'retry',
      attempt: 1,
      cause: 'interrupt',
      errorKind: null,
      delayS: 0,
      withMessage: false,
    },
    (lang) => uiText('int.resume', {}, lang),
  ],
  [
    'a wait for a network that had worked',
    { ...base, kind: 'wait', host: 'api.example', port: 443, maxWaitS: 3600, neverReached: false },
    (lang) =>
      uiText('net.unreachable', { host: 'api.example', port: 443, wait: humanDuration(3600, lang) }, lang),
  ],
  [
    'a wait for an endpoint never reached',
    { ...base, kind: 'wait', host: 'api.example', port: 443, maxWaitS: 60, neverReached: true },
    (lang) =>
      uiText('net.neverReached', { host: 'api.example', port: 443, wait: humanDuration(60, lang) }, lang),
  ],
  [
    'the network back',
    { ...base, kind: 'recovered', host: 'api.example', port: 443, waitedS: 180 },
    (lang) => uiText('net.back', { host: 'api.example', port: 443, waited: humanDuration(180, lang) }, lang),
  ],
  [
    'a stall',
    { ...base, kind: 'stall', idleS: 120, sessionId: 's' },
    (lang) => uiText('rt.stall', { idle: humanDuration(120, lang) }, lang),
  ],
  [
    'a run budget used up',
    { ...base, kind: 'budget', scope: 'run', capUsd: 5, spentUsd: 5.01234 },
    (lang) => uiText('rt.budget.run', { cap: '5.00', spent: '5.0123' }, lang),
  ],
  [
    'a step budget used up',
    { ...base, kind: 'budget', scope: 'step', capUsd: 1, spentUsd: 1.2 },
    (lang) => uiText('rt.budget.step', { cap: '1.00', spent: '1.2000' }, lang),
  ],
  [
    'a trim report',
    { ...base, kind: 'trim', sessionId: 's', report: { ...emptyLoadReport(), expired: 3 } },
    (lang) => trimReport({ ...emptyLoadReport(), expired: 3 }, lang),
  ],
  [
    'a handoff near',
    { ...base, kind: 'handoff', phase: 'near', context: 131_400, window: 200_000, threshold: 150_000 },
    (lang) => uiText('ho.near', { ctx: 131, win: 200, at: 150 }, lang),
  ],
  [
    'a handoff being written',
    { ...base, kind: 'handoff', phase: 'writing', context: 151_230, window: 200_000, threshold: 150_000 },
    (lang) => uiText('ho.writing', { ctx: '151.2', win: 200 }, lang),
  ],
  [
    'a model mismatch',
    {
      ...base,
      kind: 'warning',
      code: 'model_mismatch',
      detail: 'want claude-a, served claude-b',
      model: { wanted: 'claude-a', served: 'claude-b' },
    },
    (lang) => uiText('rt.modelMismatch', { want: 'claude-a', served: 'claude-b' }, lang),
  ],
  [
    'an unsandboxed shell',
    { ...base, kind: 'warning', code: 'shell_not_sandboxed', detail: 'bubblewrap is not installed' },
    (lang) => uiText('warn.noSandbox', { reason: 'bubblewrap is not installed' }, lang),
  ],
  [
    'owned variables ignored',
    { ...base, kind: 'warning', code: 'owned_env_ignored', detail: 'HOME, PATH' },
    (lang) => uiText('warn.ownedEnv', { keys: 'HOME, PATH' }, lang),
  ],
];

describe('describeEvent', () => {
  test.each(cases)('words %s from its figures, in each language', (_name, notice, line) => {
    for (const lang of ['en', 'zh'] as const) {
      const event = describeEvent(notice, lang);
      expect(event).toEqual({ ...notice, text: line(lang) });
    }
    expect(line('en')).not.toBe(line('zh'));
  });

  test('returns a new event and leaves the notice without words', () => {
    const notice: RuntimeNotice = { ...base, kind: 'stall', idleS: 5, sessionId: null };
    const event = describeEvent(notice, 'en');
    expect(event).not.toBe(notice);
    expect(isNotice(notice)).toBe(true);
    expect(isNotice(event)).toBe(false);
  });

  test('shortens a long retry reason to its first hundred characters', () => {
    const reason = 'x'.repeat(150);
    const event = describeEvent(
      {
        ...base,
        kind: 'retry',
        attempt: 1,
        cause: 'error',
        errorKind: 'unknown',
        delayS: 1,
        reason,
        maxAttempts: 3,
      },
      'en',
    );
    expect(event.text).toContain(`${'x'.repeat(99)}…`);
    expect(event.text).not.toContain('x'.repeat(100));
  });
});
