import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isFlowerError } from '../errors.js';
import { HandoffPolicy } from './handoff-policy.js';
import { rememberOverflow } from './window-calibration.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-handoff-policy-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('HandoffPolicy', () => {
  test('keeps a quarter of a 200K window free: hand off at 150K, warn at 130K', () => {
    const policy = new HandoffPolicy({ window: 200_000 });
    expect(policy).toMatchObject({ enabled: true, window: 200_000, headroom: 0, maxGenerations: 8 });
    expect([policy.room, policy.at, policy.warnAt]).toEqual([50_000, 150_000, 130_000]);
  });

  test('hands off at 750K on a 1M window, not at the old fixed 950K', () => {
    const policy = new HandoffPolicy({ window: 1_000_000 });
    expect([policy.room, policy.at, policy.warnAt]).toEqual([250_000, 750_000, 730_000]);
  });

  test('keeps at least 50K free on windows under 200K', () => {
    const policy = new HandoffPolicy({ window: 120_000 });
    expect([policy.room, policy.at, policy.warnAt]).toEqual([50_000, 70_000, 50_000]);
  });

  test('uses an explicit headroom instead of the proportional one', () => {
    expect(new HandoffPolicy({ window: 1_000_000, headroom: 50_000 }).at).toBe(950_000);
    const small = new HandoffPolicy({ window: 200_000, headroom: 10_000 });
    expect([small.room, small.at, small.warnAt]).toEqual([10_000, 190_000, 170_000]);
  });

  test('floors the threshold at 10K and the warning at 1K on tiny windows', () => {
    const tiny = new HandoffPolicy({ window: 30_000 });
    expect([tiny.room, tiny.at, tiny.warnAt]).toEqual([50_000, 10_000, 1_000]);
    const close = new HandoffPolicy({ window: 80_000, headroom: 55_000 });
    expect([close.at, close.warnAt]).toEqual([25_000, 5_000]);
  });

  test('takes the default window from the environment it is given', () => {
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, 'config'), ANTHROPIC_MODEL: 'claude-haiku-4-5' };
    expect(new HandoffPolicy({ env }).window).toBe(200_000);
    expect(new HandoffPolicy({ env: { ...env, FLOWER_WINDOW: '400000' } }).at).toBe(300_000);
    rememberOverflow(174_000, { env });
    expect(new HandoffPolicy({ env }).window).toBe(174_000);
    expect(new HandoffPolicy({ env, window: 500_000 }).window).toBe(500_000);
  });

  test('carries enabled and maxGenerations through', () => {
    const policy = new HandoffPolicy({ enabled: false, window: 200_000, maxGenerations: 3 });
    expect([policy.enabled, policy.maxGenerations]).toEqual([false, 3]);
  });

  test.each([
    [{ window: 0 }, 'window'],
    [{ window: -5 }, 'window'],
    [{ window: 1.5 }, 'window'],
    [{ window: 200_000, headroom: -1 }, 'headroom'],
    [{ window: 200_000, headroom: Number.NaN }, 'headroom'],
    [{ window: 200_000, maxGenerations: 0 }, 'maxGenerations'],
  ])('rejects %o with one line naming %s', (options, name) => {
    let caught: unknown;
    try {
      new HandoffPolicy(options);
    } catch (error) {
      caught = error;
    }
    expect(isFlowerError(caught) && caught.code).toBe('CONFIG_INVALID');
    expect((caught as Error).message).toContain(`Handoff setting ${name} must be`);
  });
});
