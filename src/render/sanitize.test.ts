import { describe, expect, test } from 'vitest';
import { plainLines, sanitizeLine } from './sanitize.js';

describe('sanitizeLine', () => {
  test('removes OSC, DCS, cursor movement, two-byte escapes and lone ESC', () => {
    const hostile = 'a\x1b]0;pwned title\x07b\x1bPq#0;1\x1b\\c\x1b[2J\x1b[10;5Hd\x1bce\x1b';
    expect(sanitizeLine(hostile)).toBe('abcde');
  });

  test('keeps SGR colour sequences only when asked', () => {
    expect(sanitizeLine('\x1b[31mred\x1b[0m')).toBe('red');
    expect(sanitizeLine('\x1b[1;31mred\x1b[0m', { keepColor: true })).toBe('\x1b[1;31mred\x1b[0m');
    expect(sanitizeLine('\x1b[31mred\x1b[2K', { keepColor: true })).toBe('\x1b[31mred');
  });

  test('turns tabs into spaces and drops C0, DEL and C1 characters', () => {
    expect(sanitizeLine('a\tb\x00c\x07d\x7fe\x9bf\u0085g\rh')).toBe('a bcdefgh');
  });

  test('keeps ordinary Unicode text', () => {
    expect(sanitizeLine('café 中文 — ok')).toBe('café 中文 — ok');
  });
});

describe('plainLines', () => {
  test('splits at every kind of line break', () => {
    expect(plainLines('a\r\nb\rc\nd')).toEqual(['a', 'b', 'c', 'd']);
  });
});
