import { describe, expect, test } from 'vitest';
import { valueText } from './value-text.js';

describe('valueText', () => {
  test('writes primitives as String() does, and a missing value as nothing', () => {
    expect([valueText('tool'), valueText(3), valueText(Number.NaN), valueText(false), valueText(2n)]).toEqual(
      ['tool', '3', 'NaN', 'false', '2'],
    );
    expect([valueText(undefined), valueText(null)]).toEqual(['', '']);
  });

  test('writes an object as JSON, never as "[object Object]"', () => {
    expect(valueText({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
  });
});
