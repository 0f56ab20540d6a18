import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { deriveConfig, loadConfig, reloadConfig } from './load-config.js';

let root: string;
let home: string;
let work: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-config-'));
  home = join(root, 'home');
  work = join(root, 'work');
  mkdirSync(join(home, '.config', 'flower'), { recursive: true });
  mkdirSync(work, { recursive: true });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('loadConfig', () => {
  test('merges the chain into env without touching the base environment', () => {
    writeFileSync(join(work, '.env'), 'ANTHROPIC_BASE_URL=http://gateway\nFLOWER_WINDOW=200000');
    writeFileSync(join(home, '.config', 'flower', '.env'), 'ANTHROPIC_AUTH_TOKEN=user-token');
    const base = Object.freeze({ HOME: home, ANTHROPIC_BASE_URL: 'http://shell' });
    const config = loadConfig({ env: base, cwd: work, packageRoot: null });

    expect(config.env['ANTHROPIC_BASE_URL']).toBe('http://shell');
    expect(config.env['ANTHROPIC_AUTH_TOKEN']).toBe('user-token');
    expect(config.window).toBe(200000);
    expect(config.sources).toEqual({
      ANTHROPIC_AUTH_TOKEN: join(home, '.config', 'flower', '.env'),
      FLOWER_WINDOW: join(work, '.env'),
    });
    expect(base).toEqual({ HOME: home, ANTHROPIC_BASE_URL: 'http://shell' });
    expect(config.configDir).toBe(join(home, '.config', 'flower'));
  });

  test('is frozen', () => {
    const config = loadConfig({ env: { HOME: home }, cwd: work, packageRoot: null });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.env)).toBe(true);
    expect(Object.isFrozen(config.problems)).toBe(true);
    expect(Object.isFrozen(config.sources)).toBe(true);
  });

  test('reads the switches and the language', () => {
    const config = loadConfig({
      env: {
        HOME: home,
        FLOWER_NO_UPDATE: '0',
        FLOWER_NO_PROBE: '',
        FLOWER_LANG: 'zh_CN.UTF-8',
        FLOWER_STALL_TIMEOUT: '90.5',
      },
      cwd: work,
      packageRoot: null,
    });
    // Any non-empty value turns a switch on; the value itself is not parsed.
    expect(config.noUpdate).toBe(true);
    expect(config.noProbe).toBe(false);
    expect(config.lang).toBe('zh');
    expect(config.stallTimeoutS).toBe(90.5);
    expect(config.window).toBeNull();
    expect(config.warnings).toEqual([]);
  });

  test.each(['0', '-5', '200k', '1.5', ' '])('ignores FLOWER_WINDOW=%j with a warning', (value) => {
    const config = loadConfig({ env: { HOME: home, FLOWER_WINDOW: value }, cwd: work, packageRoot: null });
    expect(config.window).toBeNull();
    expect(config.warnings).toEqual([`FLOWER_WINDOW=${value} is not a positive whole number; ignored`]);
  });

  test('reads FLOWER_UNREACHABLE_WAIT in seconds, 0 included, and ignores anything else with a warning', () => {
    const read = (value: string) =>
      loadConfig({ env: { HOME: home, FLOWER_UNREACHABLE_WAIT: value }, cwd: work, packageRoot: null });
    expect(read('0').unreachableWaitS).toBe(0);
    expect(read('2.5').unreachableWaitS).toBe(2.5);
    expect(read('').unreachableWaitS).toBeNull();
    const bad = read('a minute');
    expect(bad.unreachableWaitS).toBeNull();
    expect(bad.warnings).toEqual([
      'FLOWER_UNREACHABLE_WAIT=a minute is not a number of seconds (0 or more); ignored',
    ]);
  });

  test('ignores an invalid FLOWER_STALL_TIMEOUT with a warning', () => {
    const config = loadConfig({
      env: { HOME: home, FLOWER_STALL_TIMEOUT: 'soon' },
      cwd: work,
      packageRoot: null,
    });
    expect(config.stallTimeoutS).toBeNull();
    expect(config.warnings).toEqual([
      'FLOWER_STALL_TIMEOUT=soon is not a positive number of seconds; ignored',
    ]);
  });

  test.each([
    [undefined, true],
    ['', true],
    ['on', true],
    ['off', false],
    [' OFF ', false],
  ])('FLOWER_SANDBOX=%j gives sandbox %s, without a warning', (value, sandbox) => {
    const env = value === undefined ? { HOME: home } : { HOME: home, FLOWER_SANDBOX: value };
    const config = loadConfig({ env, cwd: work, packageRoot: null });
    expect(config.sandbox).toBe(sandbox);
    expect(config.warnings).toEqual([]);
  });

  test.each(['0', 'false', 'no', 'of'])(
    'FLOWER_SANDBOX=%j keeps the sandbox on, with one warning',
    (value) => {
      const config = loadConfig({ env: { HOME: home, FLOWER_SANDBOX: value }, cwd: work, packageRoot: null });
      // A typo must not open the shell up.
      expect(config.sandbox).toBe(true);
      expect(config.warnings).toEqual([
        `FLOWER_SANDBOX=${value} is neither on nor off; the sandbox stays on`,
      ]);
    },
  );

  test('with envFile reads only that file, over the base environment', () => {
    writeFileSync(join(work, '.env'), 'ANTHROPIC_MODEL=from-cwd');
    const file = join(root, 'only.env');
    writeFileSync(file, 'ANTHROPIC_API_KEY=file-key\nODD LINE=1');
    const config = loadConfig({ env: { HOME: home, ANTHROPIC_API_KEY: 'shell' }, cwd: work, envFile: file });
    expect(config.env['ANTHROPIC_API_KEY']).toBe('file-key');
    expect(config.env).not.toHaveProperty('ANTHROPIC_MODEL');
    expect(config.problems).toEqual([{ file, line: 2, problem: 'bad-key' }]);
  });

  test('collects .env problems', () => {
    writeFileSync(join(work, '.env'), 'ANTHROPIC_API_KEY="sk-ant-unterminated');
    const config = loadConfig({ env: { HOME: home }, cwd: work, packageRoot: null });
    expect(config.problems).toEqual([{ file: join(work, '.env'), line: 1, problem: 'unpaired-quote' }]);
  });
});

describe('reloadConfig', () => {
  test('repeats the load with the same inputs and sees changed files', () => {
    const config = loadConfig({ env: { HOME: home }, cwd: work, packageRoot: null });
    writeFileSync(join(work, '.env'), 'ANTHROPIC_MODEL=later');
    const later = reloadConfig(config);
    expect(config.env).not.toHaveProperty('ANTHROPIC_MODEL');
    expect(later.env['ANTHROPIC_MODEL']).toBe('later');
    expect(later.env['HOME']).toBe(home);
  });

  test('remembers the inputs through deriveConfig', () => {
    const config = loadConfig({ env: { HOME: home }, cwd: work, packageRoot: null });
    const derived = deriveConfig({ env: { ...config.env, EXTRA: '1' } }, config);
    writeFileSync(join(work, '.env'), 'ANTHROPIC_MODEL=again');
    const later = reloadConfig(derived);
    expect(later.env['ANTHROPIC_MODEL']).toBe('again');
    expect(later.env).not.toHaveProperty('EXTRA');
  });
});
