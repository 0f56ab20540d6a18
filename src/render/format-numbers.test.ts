import { describe, expect, test } from 'vitest';
import { formatContext, formatElapsed, formatUsd } from './format-numbers.js';

describe('formatContext', () => {
  test('shows thousands with one decimal and K, smaller numbers as integers', () => {
    expect(formatContext(36_849)).toBe('36.8K');
    expect(formatContext(1000)).toBe('1.0K');
    expect(formatContext(999)).toBe('999');
  });
});

describe('formatElapsed', () => {
  test('shows m:ss below an hour and h:mm:ss from one hour', () => {
    expect(formatElapsed(7.9)).toBe('0:07');
    expect(formatElapsed(125)).toBe('2:05');
    expect(formatElapsed(3600 + 62)).toBe('1:01:02');
  });
});

describe('formatUsd', () => {
  test('uses the requested decimals', () => {
    expect(formatUsd(0.12345, 4)).toBe('0.1235');
    expect(formatUsd(0.125, 2)).toBe('0.13');
  });
});
