import { describe, expect, test } from 'vitest';

import { drawPrompt, erasePrompt } from './prompt-drawing.js';

const CSI = '\x1b[';

describe('drawPrompt', () => {
  test.each<[string, [string, string, string, number | undefined], string, number]>([
    [
      'moves left by the width after the cursor when the width is unknown',
      ['> ', 'ab', 'cd', undefined],
      `> abcd${CSI}2D`,
      0,
    ],
    ['leaves the cursor at the end when nothing follows it', ['> ', 'ab', '', undefined], '> ab', 0],
    ['places the cursor by column on one row', ['> ', 'ab', 'cd', 80], `> abcd${CSI}5G`, 0],
    ['counts wide characters as two columns', ['答> ', '你', '好', 80], `答> 你好${CSI}7G`, 0],
    [
      'follows a prompt that wraps onto a second row',
      ['Prompt ab> ', 'xy', 'z', 10],
      `Prompt ab> xyz${CSI}4G`,
      1,
    ],
    [
      'moves up when the cursor is on an earlier row',
      ['0123456789', 'a', 'bcdefghijkl', 10],
      `0123456789abcdefghijkl${CSI}1A${CSI}2G`,
      1,
    ],
    ['stays on the last row of a line that exactly fills it', ['abc', 'de', '', 5], 'abcde', 0],
    ['places the cursor before text that exactly fills the row', ['abc', '', 'de', 5], `abcde${CSI}4G`, 0],
    ['puts the cursor at the start of the next row', ['abcde', '', 'f', 5], `abcdef${CSI}1G`, 1],
  ])('%s', (_name, [prompt, before, after, columns], text, cursorRow) => {
    expect(drawPrompt(prompt, before, after, columns)).toEqual({ text, cursorRow });
  });
});

describe('erasePrompt', () => {
  test('clears from the start of the row on one row', () => {
    expect(erasePrompt(0)).toBe(`\r${CSI}J`);
  });

  test('goes back to the first row of a wrapped prompt', () => {
    expect(erasePrompt(2)).toBe(`\r${CSI}2A${CSI}J`);
  });
});
