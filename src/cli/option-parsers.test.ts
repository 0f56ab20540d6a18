import { describe, expect, test } from 'vitest';
import { parseBudget, parseTimeout, parseToolList, wholeNumberAtLeast } from './option-parsers.js';

describe('option parsers', () => {
  test('parseToolList trims items and drops empty ones', () => {
    expect(parseToolList(' Read, Glob ,,Grep ')).toEqual(['Read', 'Glob', 'Grep']);
  });

  test('parseBudget takes positive dollars only', () => {
    expect(parseBudget('2.5')).toBe(2.5);
    for (const bad of ['0', '-1', 'abc', '', 'Infinity'])
      expect(() => parseBudget(bad), bad).toThrow(/positive number/);
  });

  test('wholeNumberAtLeast refuses fractions and numbers below the minimum', () => {
    const asks = wholeNumberAtLeast(-1, 'hint');
    expect(asks('-1')).toBe(-1);
    expect(asks('7')).toBe(7);
    for (const bad of ['-2', '1.5', 'x']) expect(() => asks(bad), bad).toThrow('hint');
  });

  test('parseTimeout takes seconds or never', () => {
    expect(parseTimeout('0')).toBe(0);
    expect(parseTimeout('90.5')).toBe(90.5);
    expect(parseTimeout('never')).toBeNull();
    expect(() => parseTimeout('-1')).toThrow(/never/);
  });
});
