import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Env } from '../config/process-environment.js';
import { isFlowerError } from '../errors.js';
import { defaultWindow, resolveWindow, windowFromModelName } from './default-window.js';
import { calibrationPath } from './window-calibration.js';

let root: string;
let env: Env;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-default-window-'));
  env = { HOME: root, XDG_CONFIG_HOME: join(root, 'config') };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function learn(entries: Record<string, unknown>): void {
  mkdirSync(join(root, 'config', 'flower'), { recursive: true });
  writeFileSync(calibrationPath(env), JSON.stringify(entries));
}

describe('windowFromModelName', () => {
  test.each([
    ['claude-opus-4-5[1m]', 1_000_000],
    ['claude-sonnet-4-5-1m', 1_000_000],
    ['Claude-Haiku-4-5[1M]', 1_000_000],
    ['vendor/haiku-1m-2025', 1_000_000],
    ['claude-haiku-4-5', 200_000],
    ['CLAUDE-3-5-HAIKU-latest', 200_000],
    ['claude-haiku-11m', 200_000],
    ['claude-haiku-1mb', 200_000],
    ['claude-opus-4-5', 1_000_000],
    ['', 1_000_000],
  ])('guesses %j as %d tokens', (model, window) => {
    expect(windowFromModelName(model)).toBe(window);
  });
});

describe('defaultWindow', () => {
  test('guesses 1M when no model is configured', () => {
    expect(resolveWindow({ env })).toEqual({ window: 1_000_000, source: 'model', notices: [] });
  });

  test('reads ANTHROPIC_MODEL, else ANTHROPIC_DEFAULT_OPUS_MODEL', () => {
    expect(defaultWindow({ env: { ...env, ANTHROPIC_DEFAULT_OPUS_MODEL: 'gw-haiku' } })).toBe(200_000);
    expect(
      defaultWindow({
        env: { ...env, ANTHROPIC_MODEL: 'claude-opus-4-5', ANTHROPIC_DEFAULT_OPUS_MODEL: 'gw-haiku' },
      }),
    ).toBe(1_000_000);
    expect(
      defaultWindow({ env: { ...env, ANTHROPIC_MODEL: '  ', ANTHROPIC_DEFAULT_OPUS_MODEL: 'gw-haiku' } }),
    ).toBe(200_000);
  });

  test('prefers the learned window for this endpoint and model over the name', () => {
    const haiku = {
      ...env,
      ANTHROPIC_BASE_URL: 'http://gw.example:8080',
      ANTHROPIC_MODEL: 'claude-haiku-4-5',
    };
    learn({ 'http://gw.example:8080|claude-haiku-4-5': 150_000, 'default|claude-haiku-4-5': 90_000 });
    expect(resolveWindow({ env: haiku })).toMatchObject({ window: 150_000, source: 'calibration' });
    expect(resolveWindow({ env: { ...haiku, ANTHROPIC_BASE_URL: '' } })).toMatchObject({ window: 90_000 });
    expect(resolveWindow({ env: { ...haiku, ANTHROPIC_MODEL: 'other' } })).toMatchObject({ source: 'model' });
  });

  test('uses given calibration entries instead of reading the file', () => {
    learn({ 'default|default': 150_000 });
    expect(defaultWindow({ env, calibration: { 'default|default': 120_000 } })).toBe(120_000);
    expect(defaultWindow({ env, calibration: {} })).toBe(1_000_000);
  });

  test('prefers FLOWER_WINDOW over the learned window', () => {
    learn({ 'default|default': 150_000 });
    expect(resolveWindow({ env: { ...env, FLOWER_WINDOW: ' 300000 ' } })).toEqual({
      window: 300_000,
      source: 'env',
      notices: [],
    });
  });

  test('ignores an invalid FLOWER_WINDOW and reports window_env_invalid', () => {
    learn({ 'default|default': 150_000 });
    for (const value of ['0', '-5', '200k', '1.5e5', '99999999999999999999']) {
      const resolved = resolveWindow({ env: { ...env, FLOWER_WINDOW: value } });
      expect(resolved.window, value).toBe(150_000);
      expect(resolved.notices, value).toEqual([
        {
          code: 'window_env_invalid',
          text: `FLOWER_WINDOW=${value} is not a positive whole number; ignored`,
        },
      ]);
    }
    expect(resolveWindow({ env: { ...env, FLOWER_WINDOW: '' } }).notices).toEqual([]);
    expect(resolveWindow({ env: { ...env, FLOWER_WINDOW: 'x' }, lang: 'zh' }).notices[0]?.text).toContain(
      'FLOWER_WINDOW=x',
    );
  });

  test('prefers an explicit window over everything', () => {
    learn({ 'default|default': 150_000 });
    expect(resolveWindow({ env: { ...env, FLOWER_WINDOW: 'bad' }, explicit: 64_000 })).toEqual({
      window: 64_000,
      source: 'explicit',
      notices: [],
    });
    expect(defaultWindow({ env: { ...env, FLOWER_WINDOW: '300000' }, explicit: null })).toBe(300_000);
  });

  test('rejects an explicit window that is not a positive whole number', () => {
    for (const explicit of [0, -1, 1.5, Number.NaN]) {
      let caught: unknown;
      try {
        defaultWindow({ env, explicit });
      } catch (error) {
        caught = error;
      }
      expect(isFlowerError(caught) && caught.code, String(explicit)).toBe('CONFIG_INVALID');
    }
  });
});
