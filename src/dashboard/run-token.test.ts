import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { bearerToken, newRunToken, runToken, TOKEN_FILE, tokenMatches } from './run-token.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('tokenMatches', () => {
  test('only the very token matches', () => {
    const token = newRunToken();
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(token, `${token}x`)).toBe(false);
    expect(tokenMatches(token, token.slice(1))).toBe(false);
    expect(tokenMatches(token, token.toUpperCase())).toBe(false);
    expect(tokenMatches(token, '')).toBe(false);
    expect(tokenMatches(token, null)).toBe(false);
    expect(tokenMatches(token, undefined)).toBe(false);
  });

  test('tokens are 32 URL-safe characters and differ each time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newRunToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[\w-]{32}$/);
  });
});

describe('bearerToken', () => {
  test('reads the token of a Bearer header and nothing else', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});

describe('runToken', () => {
  test('is made once per run directory, kept owner-only, and read back by the next dashboard', () => {
    const runDir = mkdtempSync(join(tmpdir(), 'flower-token-'));
    dirs.push(runDir);
    const first = runToken(runDir);
    expect(runToken(runDir)).toBe(first);
    expect(statSync(join(runDir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
    const other = mkdtempSync(join(tmpdir(), 'flower-token-'));
    dirs.push(other);
    expect(runToken(other)).not.toBe(first);
  });
});
