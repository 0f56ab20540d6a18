import { describe, expect, test } from 'vitest';
import { attemptBudget, budgetError } from './budget.js';

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
