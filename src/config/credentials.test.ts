import { describe, expect, test } from 'vitest';
import { checkCredentials, classifyToken, presentCredential } from './credentials.js';

describe('checkCredentials', () => {
  test.each(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'])(
    'counts a non-empty %s as present',
    (key) => {
      expect(checkCredentials({ HOME: '/home/u', [key]: 'x' })).toBeNull();
    },
  );

  test('returns the exact four lines with the CFG/.env path when none is set', () => {
    const message = checkCredentials({
      HOME: '/home/u',
      XDG_CONFIG_HOME: '/xdg',
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_BASE_URL: 'http://gateway',
    });
    expect(message).toBe(
      [
        'Missing credentials: set ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN.',
        'Easiest: run `flower setup` once to store the token in /xdg/flower/.env (set once, works everywhere).',
        'Or create a .env in the current directory, or export the variable in your shell.',
        "(Also tried borrowing Claude Code's token from the env block of ~/.claude/settings.json and settings.local.json — nothing usable.)",
      ].join('\n'),
    );
  });

  test('uses ~/.config/flower when XDG_CONFIG_HOME is empty, and the Chinese catalog for FLOWER_LANG=zh', () => {
    const message = checkCredentials({ HOME: '/home/u', XDG_CONFIG_HOME: '', FLOWER_LANG: 'zh' }) ?? '';
    expect(message.split('\n')).toHaveLength(4);
    expect(message).toContain('/home/u/.config/flower/.env');
    expect(message).toContain('没有凭证');
  });
});

describe('presentCredential', () => {
  test('prefers the API key, then the gateway token, then the OAuth token', () => {
    expect(presentCredential({ CLAUDE_CODE_OAUTH_TOKEN: 'o', ANTHROPIC_AUTH_TOKEN: 'a' })).toBe(
      'ANTHROPIC_AUTH_TOKEN',
    );
    expect(presentCredential({ CLAUDE_CODE_OAUTH_TOKEN: 'o', ANTHROPIC_API_KEY: 'k' })).toBe(
      'ANTHROPIC_API_KEY',
    );
    expect(presentCredential({ CLAUDE_CODE_OAUTH_TOKEN: 'o' })).toBe('CLAUDE_CODE_OAUTH_TOKEN');
    expect(presentCredential({ ANTHROPIC_API_KEY: '' })).toBeNull();
  });
});

describe('classifyToken', () => {
  test.each([
    ['sk-ant-api03-abcdef', 'ANTHROPIC_API_KEY'],
    ['  sk-ant-api03-abcdef  ', 'ANTHROPIC_API_KEY'],
    ['sk-ant-oat01-abcdef', 'CLAUDE_CODE_OAUTH_TOKEN'],
    ['sk-ant-admin01-abcdef', 'ANTHROPIC_AUTH_TOKEN'],
    ['sk-or-v1-gateway', 'ANTHROPIC_AUTH_TOKEN'],
    ['plain-gateway-token', 'ANTHROPIC_AUTH_TOKEN'],
  ])('files %s under %s', (token, key) => {
    expect(classifyToken(token)).toBe(key);
  });
});
