import { describe, expect, test } from 'vitest';
import { displayWidth, fitLine, renderWidth } from './display-width.js';

describe('displayWidth', () => {
  test('counts wide, fullwidth and ambiguous characters as two columns and colour as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('中文')).toBe(4);
    expect(displayWidth('ＡＢ')).toBe(4);
    expect(displayWidth('·')).toBe(2);
    expect(displayWidth('\x1b[31mab\x1b[0m')).toBe(2);
  });
});

describe('renderWidth', () => {
  test('clamps the terminal width between 40 and 110, and uses 80 when unknown', () => {
    expect(renderWidth(undefined)).toBe(80);
    expect(renderWidth(20)).toBe(40);
    expect(renderWidth(100)).toBe(100);
    expect(renderWidth(300)).toBe(110);
  });
});

describe('fitLine', () => {
  test('leaves a line that fits alone', () => {
    expect(fitLine('hello', 5)).toBe('hello');
  });

  test('cuts to width - 3 columns plus ...', () => {
    expect(fitLine('abcdefghij', 8)).toBe('abcde...');
    expect(displayWidth(fitLine('中文中文中文', 8))).toBeLessThanOrEqual(8);
  });

  test('never splits a colour sequence and resets colour after the cut', () => {
    const cut = fitLine('\x1b[31mabcdefghij\x1b[0m', 8);
    expect(cut).toBe('\x1b[31mabcde...\x1b[0m');
  });
});
