import { describe, expect, test } from 'vitest';
import type { SessionStoreEntry } from '../agent/claude-sdk.js';
import { CostLedger, estimateEntries, savedCost } from './cost-ledger.js';
import { PriceTable } from './price-table.js';

function stored(id: string, input: number, output = 0, model = 'claude-opus-5-5'): SessionStoreEntry {
  return {
    type: 'assistant',
    uuid: `${id}-${Math.random()}`,
    message: { id, model, usage: { input_tokens: input, output_tokens: output } },
  };
}

const price = (input: number, output = 0): number => (input * 4 + output * 20) / 1e6;

describe('CostLedger', () => {
  test('prices each response once as it is stored, across its content-block entries', () => {
    const ledger = new CostLedger();
    ledger.beginQuery();
    expect(ledger.noteStored(stored('m1', 1000, 10))).toBe(true);
    expect(ledger.noteStored(stored('m1', 1000, 10))).toBe(false);
    expect(ledger.noteStored({ type: 'user', uuid: 'u' })).toBe(false);
    ledger.noteStored(stored('m2', 2000));
    expect(ledger.usd).toBeCloseTo(price(1000, 10) + price(2000), 12);
  });

  test('replaces the estimates with the result total minus the saved baseline', () => {
    const ledger = new CostLedger();
    ledger.beginQuery();
    ledger.setBaseline(0.4);
    ledger.noteStreamed('m1');
    ledger.noteStored(stored('m1', 1000));
    expect(ledger.noteResult(0.45)).toBeCloseTo(0.05, 12);
    expect(ledger.usd).toBeCloseTo(0.05, 12);
    // A second result of the same query adds only its increase.
    ledger.noteStored(stored('m2', 2000));
    expect(ledger.noteResult(0.5)).toBeCloseTo(0.05, 12);
    expect(ledger.usd).toBeCloseTo(0.1, 12);
  });

  test('does not price a response stored after the result that already covered it', () => {
    const ledger = new CostLedger();
    ledger.beginQuery();
    ledger.noteStreamed('late');
    ledger.noteResult(0.2);
    expect(ledger.noteStored(stored('late', 5000))).toBe(false);
    expect(ledger.usd).toBeCloseTo(0.2, 12);
  });

  test('keeps the estimates of a query that ended without a result and adds the next query on top', () => {
    const ledger = new CostLedger(0.01);
    ledger.beginQuery();
    ledger.noteStored(stored('m1', 1000));
    ledger.endQuery();
    ledger.beginQuery(0.3);
    ledger.noteResult(0.32);
    expect(ledger.usd).toBeCloseTo(0.01 + price(1000) + 0.02, 12);
  });
});

describe('CostLedger and a loaded transcript', () => {
  test('does not price copies of responses the resumed transcript already held (a fork stores them again)', () => {
    const ledger = new CostLedger();
    ledger.beginQuery();
    ledger.noteLoaded([stored('old', 100_000), { type: 'user', uuid: 'u' }]);
    expect(ledger.noteStored(stored('old', 100_000))).toBe(false);
    expect(ledger.noteStored(stored('new', 1000))).toBe(true);
    expect(ledger.usd).toBeCloseTo(price(1000), 12);
  });
});

describe('savedCost and estimateEntries', () => {
  test('reads the last saved total and prices distinct responses', () => {
    const entries = [
      { type: 'cost-state', totalCostUSD: 0.1 },
      stored('m1', 1000),
      stored('m1', 1000),
      { type: 'cost-state', totalCostUSD: 0.25 },
      stored('m2', 0, 100, 'claude-haiku-4-5'),
    ];
    expect(savedCost(entries)).toBe(0.25);
    expect(savedCost(null)).toBe(0);
    expect(estimateEntries(entries)).toBeCloseTo(price(1000) + (100 * 5) / 1e6, 12);
  });
});

describe('CostLedger with prices of its own', () => {
  test("keeps flower's figure when a response was priced from the user's table: the child's total is no truth", () => {
    const ledger = new CostLedger(
      0,
      new PriceTable({
        taken: null,
        models: { 'gateway-model': { input: 1, output: 2, cacheWrite: 1, cacheRead: 0 } },
      }),
    );
    ledger.beginQuery();
    ledger.noteStreamed('m1');
    ledger.noteStored(stored('m1', 1000, 100, 'gateway-model'));
    // The child priced the unknown id at $4/$20.
    expect(ledger.noteResult(price(1000, 100))).toBeCloseTo(0.0012, 12);
    expect(ledger.usd).toBeCloseTo(0.0012, 12);
    // A response stored after the result is still priced (the result covered nothing of flower's).
    ledger.noteStored(stored('m1', 1000, 100, 'gateway-model'));
    ledger.noteStored(stored('m2', 1000, 0, 'gateway-model'));
    ledger.endQuery();
    expect(ledger.usd).toBeCloseTo(0.0022, 12);
  });

  test('a list-priced query still takes the child’s total as the truth', () => {
    const ledger = new CostLedger(0, new PriceTable({ taken: null, models: {} }));
    ledger.beginQuery();
    ledger.noteStreamed('m1');
    ledger.noteStored(stored('m1', 1000));
    expect(ledger.noteResult(0.01)).toBeCloseTo(0.01, 12);
  });
});

describe('CostLedger after a retry', () => {
  test("keeps flower's figure when the child retried a request: its total may count a cut answer's start", () => {
    const ledger = new CostLedger();
    ledger.beginQuery();
    ledger.noteStreamed('m1');
    ledger.noteStored(stored('m1', 1000, 10));
    ledger.noteRetry();
    expect(ledger.noteResult(price(1000, 10) + price(12_000, 1))).toBeCloseTo(price(1000, 10), 12);
    expect(ledger.usd).toBeCloseTo(price(1000, 10), 12);
    // The next query, without a retry, takes the child's total again.
    ledger.beginQuery(price(1000, 10) + price(12_000, 1));
    ledger.noteResult(price(1000, 10) + price(12_000, 1) + 0.01);
    expect(ledger.usd).toBeCloseTo(price(1000, 10) + 0.01, 12);
  });
});
