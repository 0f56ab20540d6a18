import { describe, expect, test } from 'vitest';
import { StepAbort, isStepAbort } from './step-abort.js';
import { STEP_NAMES, attemptLabel, verdictLabel } from './step-names.js';

describe('step names', () => {
  test('are the English names docs/go-path.md lists', () => {
    expect(STEP_NAMES).toEqual({
      clarify: 'clarify',
      goal: 'goal',
      work: 'work',
      bequest: 'bequest',
      once: 'ad-hoc',
      aside: 'aside',
    });
  });

  test('label judge rounds as <step>/verdict#<N>', () => {
    expect(verdictLabel('work', 2)).toBe('work/verdict#2');
  });

  test('label reruns as #round<N> from 2 with onReject, else #retry<N> from 1', () => {
    expect([0, 1, 2].map((attempt) => attemptLabel('work', attempt, true))).toEqual([
      'work',
      'work#round2',
      'work#round3',
    ]);
    expect([0, 1, 2].map((attempt) => attemptLabel('work', attempt, false))).toEqual([
      'work',
      'work#retry1',
      'work#retry2',
    ]);
  });
});

describe('StepAbort', () => {
  test('is an Error named StepAbort, recognised also across package copies', () => {
    const abort = new StepAbort('unreachable');
    expect(abort).toBeInstanceOf(Error);
    expect(abort.name).toBe('StepAbort');
    expect(isStepAbort(abort)).toBe(true);
    const foreign = Object.assign(new Error('x'), { name: 'StepAbort' });
    expect(isStepAbort(foreign)).toBe(true);
    expect(isStepAbort(new Error('x'))).toBe(false);
  });
});
