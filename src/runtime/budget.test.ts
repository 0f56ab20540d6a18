import { describe, expect, test } from 'vitest';
import { attemptBudget, budgetError, projectedCrossing } from './budget.js';

describe('attemptBudget', () => {
  test('is open without caps', () => {
    expect(attemptBudget({ stepCapUsd: null, runCapUsd: null }, { stepUsd: 5, runUsd: 9 })).toEqual({
      kind: 'open',
    });
  });

  test('gives the smaller remainder and names the cap that binds', () => {
    expect(attemptBudget({ stepCapUsd: 1, runCapUsd: 10 }, { stepUsd: 0.25, runUsd: 3 })).toEqual({
      kind: 'capped',
      capUsd: 0.75,
      scope: 'step',
    });
    expect(attemptBudget({ stepCapUsd: 1, runCapUsd: 3.5 }, { stepUsd: 0.25, runUsd: 3 })).toEqual({
      kind: 'capped',
      capUsd: 0.5,
      scope: 'run',
    });
  });

  test('is exhausted when a cap is used up, with the cap and the spend', () => {
    expect(attemptBudget({ stepCapUsd: 1, runCapUsd: null }, { stepUsd: 1.2, runUsd: 4 })).toEqual({
      kind: 'exhausted',
      scope: 'step',
      capUsd: 1,
      spentUsd: 1.2,
    });
    expect(attemptBudget({ stepCapUsd: null, runCapUsd: 2 }, { stepUsd: 0, runUsd: 2 })).toMatchObject({
      kind: 'exhausted',
      scope: 'run',
    });
  });

  test('names the error as docs/runtime.md does', () => {
    expect(budgetError('run')).toBe('error_max_budget_usd: run budget exhausted');
  });
});

describe('projectedCrossing', () => {
  const caps = { stepCapUsd: null, runCapUsd: 0.1 };

  test('closes once the spend plus the next turn would pass the cap, not before', () => {
    expect(projectedCrossing(caps, { stepUsd: 0.06, runUsd: 0.06 }, 0.03)).toBeNull();
    expect(projectedCrossing(caps, { stepUsd: 0.09, runUsd: 0.09 }, 0.03)).toEqual({
      scope: 'run',
      capUsd: 0.1,
      spentUsd: 0.09,
      projectedUsd: expect.closeTo(0.12, 12) as unknown,
    });
  });

  test('checks the step cap first and ignores caps that are not set', () => {
    const both = { stepCapUsd: 0.05, runCapUsd: 0.1 };
    expect(projectedCrossing(both, { stepUsd: 0.04, runUsd: 0.09 }, 0.02)?.scope).toBe('step');
    expect(projectedCrossing({ stepCapUsd: null, runCapUsd: null }, { stepUsd: 9, runUsd: 9 }, 9)).toBeNull();
  });
});
