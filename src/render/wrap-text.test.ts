import { describe, expect, test } from 'vitest';
import { displayWidth } from './display-width.js';
import { wrapText } from './wrap-text.js';

const indent = { first: '  ', next: '  ' };

describe('wrapText', () => {
  test('breaks at whitespace within the width, prefixes included', () => {
    const lines = wrapText('the quick brown fox jumps over the lazy dog', 16, indent);
    expect(lines).toEqual(['  the quick', '  brown fox', '  jumps over the', '  lazy dog']);
    expect(lines.every((line) => displayWidth(line) <= 16)).toBe(true);
  });

  test('uses the first prefix once and the continuation prefix after it', () => {
    expect(wrapText('one two three', 10, { first: '  ~ ', next: '    ' })).toEqual([
      '  ~ one',
      '    two',
      '    three',
    ]);
  });

  test('breaks CJK text between characters', () => {
    const lines = wrapText('这是一个很长的中文句子需要换行', 12, indent);
    expect(lines.every((line) => displayWidth(line) <= 12)).toBe(true);
    expect(lines.join('').replace(/ /g, '')).toBe('这是一个很长的中文句子需要换行');
  });

  test('never starts a line with closing punctuation', () => {
    // Width 8 fits "  " + three CJK characters (6 columns); the full stop must not open the next line.
    const lines = wrapText('一二三。四五', 8, indent);
    expect(lines.some((line) => line.trimStart().startsWith('。'))).toBe(false);
    expect(lines).toEqual(['  一二', '  三。四', '  五']);
  });

  test('drops blank paragraphs and splits a word longer than a line', () => {
    expect(wrapText('a\n\n   \nb', 10, indent)).toEqual(['  a', '  b']);
    expect(wrapText('abcdefghijkl', 6, indent)).toEqual(['  abcd', '  efgh', '  ijkl']);
  });

  test('keeps a long word whole when asked', () => {
    expect(
      wrapText('see /a/very/long/path/here', 10, { first: '', next: '', splitLongWords: false }),
    ).toEqual(['see', '/a/very/long/path/here']);
  });
});
