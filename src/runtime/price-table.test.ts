import { describe, expect, test } from 'vitest';
import { FALLBACK_PRICE, priceOf, usageCost } from './price-table.js';

describe('usageCost', () => {
  test('prices opus-5-5 at $4 in, $20 out, $5 cache write and $0.20 cache read per million', () => {
    const cost = usageCost('claude-opus-5-5', {
      input_tokens: 1000,
      output_tokens: 100,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 500,
    });
    expect(cost).toBeCloseTo((1000 * 4 + 100 * 20 + 200 * 5 + 500 * 0.2) / 1e6, 12);
  });

  test('matches the child on a measured query: 6000 in, 210 out, 500 cache read cost $0.0283', () => {
    expect(
      usageCost('claude-opus-5-5', { input_tokens: 6000, output_tokens: 210, cache_read_input_tokens: 500 }),
    ).toBeCloseTo(0.0283, 10);
  });

  test('ignores missing and invalid counts', () => {
    expect(usageCost('claude-opus-5-5', { input_tokens: -5, output_tokens: Number.NaN })).toBe(0);
  });
});

describe('priceOf', () => {
  test('knows other families, strips a date or [1m] suffix, and falls back like the child', () => {
    expect(priceOf('claude-haiku-4-5-20251001').input).toBe(1);
    expect(priceOf('CLAUDE-SONNET-4-5[1m]').output).toBe(15);
    expect(priceOf('some-gateway-model')).toBe(FALLBACK_PRICE);
  });
});
