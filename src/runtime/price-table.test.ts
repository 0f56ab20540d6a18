import { describe, expect, test } from 'vitest';
import {
  FALLBACK_PRICE,
  LIST_PRICES,
  lookupPrice,
  PRICES_TAKEN,
  PriceTable,
  priceOf,
  usageCost,
} from './price-table.js';

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

describe('lookupPrice and PriceTable', () => {
  const overrides = {
    taken: '2027-01-10',
    models: { 'gateway-model': { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 } },
  };

  test('a model missing from the list is priced as the family its id names, else at the fallback', () => {
    expect(lookupPrice('claude-sonnet-5-0')).toEqual({
      price: LIST_PRICES['claude-sonnet-4-5'],
      source: 'family',
      family: 'sonnet',
    });
    expect(lookupPrice('claude-haiku-9').price).toBe(LIST_PRICES['claude-haiku-4-5']);
    expect(lookupPrice('claude-sonnet-4-5').source).toBe('list');
    expect(lookupPrice('mystery')).toEqual({ price: FALLBACK_PRICE, source: 'fallback', family: null });
  });

  test("the user's prices come first, for exact ids and ids with a date suffix", () => {
    expect(lookupPrice('gateway-model-20270101', overrides)).toMatchObject({ source: 'override' });
    expect(usageCostAt(new PriceTable(overrides), 'gateway-model')).toBeCloseTo(
      (1000 * 1 + 100 * 2) / 1e6,
      12,
    );
    expect(new PriceTable(overrides).taken).toBe('2027-01-10');
    expect(new PriceTable().taken).toBe(PRICES_TAKEN);
  });

  test('reports each guessed model once, and never a listed, overridden or synthetic one', () => {
    const table = new PriceTable(overrides);
    const guessed: string[] = [];
    table.onGuess = (model, lookup) => guessed.push(`${model}:${lookup.source}:${lookup.family ?? '-'}`);
    for (const model of [
      'claude-opus-9',
      'claude-opus-9',
      'CLAUDE-OPUS-9',
      'claude-opus-5-5',
      'gateway-model',
    ]) {
      table.cost(model, { input_tokens: 1 });
    }
    table.cost('<synthetic>', { input_tokens: 0 });
    table.cost('mystery', { input_tokens: 1 });
    expect(guessed).toEqual(['claude-opus-9:family:opus', 'mystery:fallback:-']);
  });
});

function usageCostAt(table: PriceTable, model: string): number {
  return table.cost(model, { input_tokens: 1000, output_tokens: 100 });
}
