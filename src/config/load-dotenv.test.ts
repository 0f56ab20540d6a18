import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isFlowerError } from '../errors.js';
import { dotenvChainFiles, loadDotenv } from './load-dotenv.js';

// Seven known keys, one per source: source i defines keys 0..i, so key i must come from source i.
const KEYS = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_MODEL',
  'ANTHROPIC_DEFAULT_OPUS_MODEL',
  'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'ANTHROPIC_DEFAULT_HAIKU_MODEL',
] as const;

let root: string;
let home: string;
let xdg: string;
let work: string;
let packageRoot: string;

function write(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function dotenvFrom(last: number, label: string): string {
  return KEYS.slice(0, last + 1)
    .map((key) => `${key}=${label}`)
    .join('\n');
}

function settingsFrom(last: number, label: string): string {
  return JSON.stringify({ env: Object.fromEntries(KEYS.slice(0, last + 1).map((key) => [key, label])) });
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-dotenv-'));
  home = join(root, 'home');
  xdg = join(root, 'xdg');
  work = join(root, 'work');
  packageRoot = join(root, 'package');
  for (const directory of [home, xdg, work, join(packageRoot, '.git')])
    mkdirSync(directory, { recursive: true });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('loadDotenv', () => {
  test('fills each key from the first of the six sources that has it', () => {
    const flowerEnv = write(join(root, 'chosen.env'), dotenvFrom(1, 'flower-env'));
    const cwdEnv = write(join(work, '.env'), dotenvFrom(2, 'cwd'));
    const userEnv = write(join(xdg, 'flower', '.env'), dotenvFrom(3, 'user'));
    const packageEnv = write(join(packageRoot, '.env'), dotenvFrom(4, 'package'));
    const settings = write(join(home, '.claude', 'settings.json'), settingsFrom(5, 'settings'));
    const local = write(join(home, '.claude', 'settings.local.json'), settingsFrom(6, 'local'));
    const target: Record<string, string | undefined> = {
      HOME: home,
      XDG_CONFIG_HOME: xdg,
      FLOWER_ENV: flowerEnv,
      ANTHROPIC_API_KEY: 'process',
    };

    const result = loadDotenv({ target, cwd: work, packageRoot });

    expect(KEYS.map((key) => target[key])).toEqual([
      'process',
      'flower-env',
      'cwd',
      'user',
      'package',
      'settings',
      'local',
    ]);
    expect(result.filled).toEqual({
      ANTHROPIC_AUTH_TOKEN: flowerEnv,
      ANTHROPIC_BASE_URL: cwdEnv,
      ANTHROPIC_MODEL: userEnv,
      ANTHROPIC_DEFAULT_OPUS_MODEL: packageEnv,
      ANTHROPIC_DEFAULT_SONNET_MODEL: settings,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: local,
    });
    expect(result.problems).toEqual([]);
  });

  test('lets a later source fill a key the environment exports empty', () => {
    write(join(work, '.env'), 'ANTHROPIC_API_KEY=from-file');
    const target: Record<string, string | undefined> = { HOME: home, ANTHROPIC_API_KEY: '' };
    loadDotenv({ target, cwd: work, packageRoot: null });
    expect(target['ANTHROPIC_API_KEY']).toBe('from-file');
  });

  test('lets a later file fill a key an earlier file leaves empty', () => {
    write(join(work, '.env'), 'ANTHROPIC_AUTH_TOKEN=\nANTHROPIC_BASE_URL=http://project');
    write(join(home, '.config', 'flower', '.env'), 'ANTHROPIC_AUTH_TOKEN=user-token');
    const target: Record<string, string | undefined> = { HOME: home };
    loadDotenv({ target, cwd: work, packageRoot: null });
    expect(target['ANTHROPIC_AUTH_TOKEN']).toBe('user-token');
    expect(target['ANTHROPIC_BASE_URL']).toBe('http://project');
  });

  test('loads every key from .env files but borrows only known keys from Claude Code settings', () => {
    write(join(work, '.env'), 'MY_OWN_SETTING=1');
    write(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({
        env: { OTHER_SECRET: 'x', CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat-1' },
        permissions: {},
      }),
    );
    const target: Record<string, string | undefined> = { HOME: home };
    loadDotenv({ target, cwd: work, packageRoot: null });
    expect(target['MY_OWN_SETTING']).toBe('1');
    expect(target['CLAUDE_CODE_OAUTH_TOKEN']).toBe('sk-ant-oat-1');
    expect(target).not.toHaveProperty('OTHER_SECRET');
    expect(target).not.toHaveProperty('permissions');
  });

  test('stringifies borrowed values and skips empty or structured ones', () => {
    write(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({
        env: {
          ANTHROPIC_MODEL: 42,
          CLAUDE_CODE_EFFORT_LEVEL: true,
          ANTHROPIC_API_KEY: '',
          ANTHROPIC_AUTH_TOKEN: null,
          ANTHROPIC_BASE_URL: { url: 'x' },
        },
      }),
    );
    const target: Record<string, string | undefined> = { HOME: home };
    const result = loadDotenv({ target, cwd: work, packageRoot: null });
    expect(Object.keys(result.filled).sort()).toEqual(['ANTHROPIC_MODEL', 'CLAUDE_CODE_EFFORT_LEVEL']);
    expect(target['ANTHROPIC_MODEL']).toBe('42');
    expect(target['CLAUDE_CODE_EFFORT_LEVEL']).toBe('true');
  });

  test.each([
    ['invalid JSON', '{"env": {"ANTHROPIC_API_KEY": '],
    ['a JSON array', '[1, 2]'],
    ['env that is not an object', '{"env": "ANTHROPIC_API_KEY=x"}'],
    ['an empty file', ''],
  ])('treats a settings.json with %s as empty and still reads settings.local.json', (_, text) => {
    write(join(home, '.claude', 'settings.json'), text);
    write(
      join(home, '.claude', 'settings.local.json'),
      JSON.stringify({ env: { ANTHROPIC_API_KEY: 'local' } }),
    );
    const target: Record<string, string | undefined> = { HOME: home };
    expect(() => loadDotenv({ target, cwd: work, packageRoot: null })).not.toThrow();
    expect(target['ANTHROPIC_API_KEY']).toBe('local');
  });

  test('finds nothing, and does not fail, when ~/.claude is missing', () => {
    const target: Record<string, string | undefined> = { HOME: join(root, 'nobody') };
    expect(loadDotenv({ target, cwd: work, packageRoot: null })).toEqual({ filled: {}, problems: [] });
  });

  test('reads the package root .env only in a source checkout', () => {
    write(join(packageRoot, '.env'), 'ANTHROPIC_MODEL=from-checkout');
    const installed = join(root, 'installed');
    write(join(installed, '.env'), 'ANTHROPIC_BASE_URL=from-install');
    const target: Record<string, string | undefined> = { HOME: home };
    loadDotenv({ target, cwd: work, packageRoot });
    loadDotenv({ target, cwd: work, packageRoot: installed });
    expect(target['ANTHROPIC_MODEL']).toBe('from-checkout');
    expect(target).not.toHaveProperty('ANTHROPIC_BASE_URL');
  });

  test('resolves a relative FLOWER_ENV against the working directory', () => {
    write(join(work, 'config', 'team.env'), 'ANTHROPIC_MODEL=team');
    const target: Record<string, string | undefined> = { HOME: home, FLOWER_ENV: 'config/team.env' };
    loadDotenv({ target, cwd: work, packageRoot: null });
    expect(target['ANTHROPIC_MODEL']).toBe('team');
  });

  test('locates the chain before filling, so a .env cannot redirect it', () => {
    write(join(work, '.env'), `XDG_CONFIG_HOME=${xdg}`);
    write(join(xdg, 'flower', '.env'), 'ANTHROPIC_MODEL=redirected');
    const target: Record<string, string | undefined> = { HOME: home };
    loadDotenv({ target, cwd: work, packageRoot: null });
    expect(target['XDG_CONFIG_HOME']).toBe(xdg);
    expect(target).not.toHaveProperty('ANTHROPIC_MODEL');
  });

  test('is idempotent', () => {
    write(join(work, '.env'), 'ANTHROPIC_MODEL=m');
    const target: Record<string, string | undefined> = { HOME: home };
    loadDotenv({ target, cwd: work, packageRoot: null });
    const again = loadDotenv({ target, cwd: work, packageRoot: null });
    expect(again.filled).toEqual({});
    expect(target['ANTHROPIC_MODEL']).toBe('m');
  });

  test('reports odd lines with file and line, and an unreadable .env as line 0', () => {
    const flowerEnv = write(join(root, 'odd.env'), 'A=1\nNOPE\nB="open');
    mkdirSync(join(work, '.env'));
    const target: Record<string, string | undefined> = { HOME: home, FLOWER_ENV: flowerEnv };
    const { problems } = loadDotenv({ target, cwd: work, packageRoot: null });
    expect(problems).toEqual([
      { file: flowerEnv, line: 2, problem: 'no-equals' },
      { file: flowerEnv, line: 3, problem: 'unpaired-quote' },
      { file: join(work, '.env'), line: 0, problem: 'unreadable' },
    ]);
  });

  test('with an explicit path reads only that file, overriding, with no fallback', () => {
    const explicit = write(join(root, 'explicit.env'), 'ANTHROPIC_API_KEY=new\nANTHROPIC_MODEL=');
    write(join(work, '.env'), 'ANTHROPIC_BASE_URL=from-cwd');
    write(join(home, '.claude', 'settings.json'), JSON.stringify({ env: { ANTHROPIC_MODEL: 'borrowed' } }));
    const target: Record<string, string | undefined> = { HOME: home, ANTHROPIC_API_KEY: 'old' };
    const result = loadDotenv({ path: explicit, target, cwd: work });
    expect(target).toEqual({ HOME: home, ANTHROPIC_API_KEY: 'new' });
    expect(result.filled).toEqual({ ANTHROPIC_API_KEY: explicit });
  });

  test('with an explicit path that does not exist throws a one-line CONFIG_INVALID error', () => {
    const missing = join(root, 'missing.env');
    let caught: unknown;
    try {
      loadDotenv({ path: missing, target: {}, cwd: work });
    } catch (error) {
      caught = error;
    }
    expect(isFlowerError(caught) && caught.code).toBe('CONFIG_INVALID');
    expect((caught as Error).message).toBe(`Cannot read the .env file ${missing}: ENOENT`);
  });

  test('fills process.env by default', () => {
    const explicit = write(join(root, 'default-target.env'), 'FLOWER_TEST_DEFAULT_TARGET=yes');
    try {
      loadDotenv({ path: explicit });
      expect(process.env['FLOWER_TEST_DEFAULT_TARGET']).toBe('yes');
    } finally {
      delete process.env['FLOWER_TEST_DEFAULT_TARGET'];
    }
  });
});

describe('loadDotenv and NUL bytes', () => {
  test('a chain file with a NUL byte is refused with file and line, never the value, and fills nothing', () => {
    const file = write(join(work, '.env'), 'A=1\nTOKEN=sk-ant-se\0cret\n');
    const target: Record<string, string | undefined> = { HOME: home, XDG_CONFIG_HOME: xdg };
    let caught: unknown;
    try {
      loadDotenv({ target, cwd: work, packageRoot: null });
    } catch (error) {
      caught = error;
    }
    expect(isFlowerError(caught) && caught.code).toBe('CONFIG_INVALID');
    expect((caught as Error).message).toContain(`The .env file ${file} holds a NUL byte on line 2`);
    expect((caught as Error).message).not.toContain('secret');
    expect(target['A']).toBeUndefined();
  });
});

describe('dotenvChainFiles', () => {
  test('lists each file once, in lookup order', () => {
    const userEnv = join(xdg, 'flower', '.env');
    const files = dotenvChainFiles({
      env: { HOME: home, XDG_CONFIG_HOME: xdg, FLOWER_ENV: userEnv },
      cwd: work,
      packageRoot,
    });
    expect(files).toEqual([userEnv, join(work, '.env'), join(packageRoot, '.env')]);
  });
});
