import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { deriveConfig } from './load-config.js';
import { parsePriceOverrides, readPriceOverrides } from './price-overrides.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flower-prices-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const table = { taken: '2027-01-10', models: { 'My-Model': { input: 2, output: 8 } } };

describe('FLOWER_PRICES', () => {
  test('reads a file relative to the .env that set it, with cache prices defaulting like the list', () => {
    writeFileSync(join(dir, 'prices.json'), JSON.stringify(table));
    const result = readPriceOverrides('prices.json', { fromFile: join(dir, '.env'), cwd: '/' });
    expect(result).toEqual({
      overrides: {
        taken: '2027-01-10',
        models: { 'my-model': { input: 2, output: 8, cacheWrite: 2.5, cacheRead: 0.2 } },
      },
      problem: null,
    });
  });

  test('takes inline JSON, and says what is wrong with a bad value instead of using it', () => {
    expect(readPriceOverrides(JSON.stringify(table), { cwd: dir }).overrides?.taken).toBe('2027-01-10');
    expect(readPriceOverrides('missing.json', { cwd: dir }).problem).toMatch(/^cannot read .*missing\.json/);
    expect(readPriceOverrides('{nope', { cwd: dir }).problem).toMatch(/^not JSON/);
    expect(parsePriceOverrides({ models: { m: { input: -1, output: 1 } } })).toBe(
      'model m: input and output must be numbers, 0 or more',
    );
    expect(readPriceOverrides(undefined, { cwd: dir })).toEqual({ overrides: null, problem: null });
  });

  test('the loaded configuration carries the prices, or one warning line when they are unusable', () => {
    const good = deriveConfig({ env: { FLOWER_PRICES: JSON.stringify(table) } });
    expect(good.prices?.models['my-model']?.output).toBe(8);
    expect(good.warnings).toEqual([]);
    const bad = deriveConfig({ env: { FLOWER_PRICES: '{"models": 3}' } });
    expect(bad.prices).toBeNull();
    expect(bad.warnings).toEqual([
      'FLOWER_PRICES is not usable (expected {"models": {"<model>": {"input": …, "output": …}}}); the built-in prices are used',
    ]);
  });
});
