import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { describeConfig, maskSecret } from './describe-config.js';
import { deriveConfig } from './load-config.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flower-describe-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('maskSecret', () => {
  test('shows the first 4 characters and the length', () => {
    expect(maskSecret('sk-ant-api03-abcdefghijkl')).toBe('sk-a*** (25 chars)');
  });

  test('shows no characters of a short secret', () => {
    expect(maskSecret('12345678')).toBe('*** (8 chars)');
  });
});

describe('describeConfig', () => {
  test('lists the known keys in order, masks secrets, and adds the default URL, window and plugin lines', () => {
    const lines = describeConfig(
      {
        HOME: '/home/u',
        ANTHROPIC_MODEL: 'claude-opus-5',
        CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-abcdefgh',
        ANTHROPIC_API_KEY: 'sk-ant-api03-abcdefgh',
        ANTHROPIC_AUTH_TOKEN: '',
        UNRELATED: 'x',
      },
      { pluginDir: root },
    );
    expect(lines).toEqual([
      'ANTHROPIC_API_KEY = sk-a*** (21 chars)',
      'CLAUDE_CODE_OAUTH_TOKEN = sk-a*** (21 chars)',
      'ANTHROPIC_MODEL = claude-opus-5',
      'ANTHROPIC_BASE_URL = https://api.anthropic.com (default)',
      'FLOWER_WINDOW = (not set: guessed from the model name, learned from overflows)',
      `plugin directory = ${root} (present)`,
    ]);
  });

  test('says where each value came from, with ~ for the home directory, and reports .env problems', () => {
    const home = '/home/u';
    const config = deriveConfig({
      env: {
        HOME: home,
        ANTHROPIC_AUTH_TOKEN: 'gateway-token-123',
        ANTHROPIC_BASE_URL: 'http://gw',
        FLOWER_WINDOW: '200k',
        FLOWER_NO_PROBE: '1',
        FLOWER_SANDBOX: 'off',
        FLOWER_ENV: join(root, 'absent.env'),
      },
      sources: { ANTHROPIC_AUTH_TOKEN: `${home}/.config/flower/.env` },
      problems: [{ file: `${home}/project/.env`, line: 3, problem: 'unpaired-quote' }],
    });
    const lines = describeConfig(config, { pluginDir: join(root, 'no-plugin') });
    expect(lines).toEqual([
      'ANTHROPIC_AUTH_TOKEN = gate*** (17 chars) (from ~/.config/flower/.env)',
      'ANTHROPIC_BASE_URL = http://gw (from your shell)',
      'FLOWER_WINDOW = 200k (ignored: not a positive number) (from your shell)',
      `FLOWER_ENV = ${join(root, 'absent.env')} (file not found)`,
      'FLOWER_NO_PROBE = 1 (from your shell)',
      'FLOWER_SANDBOX = off (from your shell)',
      `plugin directory = ${join(root, 'no-plugin')} (missing: the skills, agents and hooks shipped with flower are not loaded)`,
      '.env ~/project/.env:3: unpaired quote; the value is kept as written',
    ]);
    expect(lines.join('\n')).not.toContain('gateway-token-123');
  });
});
