import { describe, expect, test } from 'vitest';
import { durationS, newStepResult } from './step-result.js';

describe('durationS', () => {
  test('rounds to two decimals', () => {
    expect(durationS({ ...newStepResult('s', 10), endedAt: 12.345678 })).toBe(2.35);
  });

  test('is 0 while unfinished', () => {
    expect(durationS(newStepResult('s', 10))).toBe(0);
  });
});
