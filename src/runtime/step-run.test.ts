import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

import { COST_WRITE_INTERVAL_MS, StepRun } from './step-run.js';

describe('StepRun manifest writes', () => {
  let writes: number[];
  let run: StepRun;

  beforeEach(() => {
    vi.useFakeTimers();
    writes = [];
    run = new StepRun('work', null, {
      onSession: () => undefined,
      persist: () => writes.push(run.result.costUsd),
      uiErrors: [],
    });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  const spend = (usd: number): void => {
    run.ledger.noteResult(usd);
    run.syncCost();
  };

  test('writes the first cost at once and a burst after it once, at the end of the interval', () => {
    spend(0.1);
    expect(writes).toEqual([0.1]);
    spend(0.2);
    spend(0.3);
    expect(writes).toEqual([0.1]);
    vi.advanceTimersByTime(COST_WRITE_INTERVAL_MS);
    expect(writes).toEqual([0.1, 0.3]);
    vi.advanceTimersByTime(10 * COST_WRITE_INTERVAL_MS);
    expect(writes).toEqual([0.1, 0.3]);
  });

  test('writes at once again once the interval has passed', () => {
    spend(0.1);
    vi.advanceTimersByTime(COST_WRITE_INTERVAL_MS);
    spend(0.2);
    expect(writes).toEqual([0.1, 0.2]);
  });

  test('a new session id is written at once, carrying the cost a put-off write held', () => {
    spend(0.1);
    spend(0.2);
    run.noteSession('s-1');
    expect(writes).toEqual([0.1, 0.2]);
    vi.advanceTimersByTime(COST_WRITE_INTERVAL_MS);
    expect(writes).toEqual([0.1, 0.2]);
  });

  test('drops a put-off write once the step has ended (the runtime writes the finished row)', () => {
    spend(0.1);
    spend(0.2);
    run.result.endedAt = Date.now() / 1000;
    vi.advanceTimersByTime(COST_WRITE_INTERVAL_MS);
    expect(writes).toEqual([0.1]);
  });
});
