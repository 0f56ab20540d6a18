import stringWidth from 'string-width';
import { describe, expect, test } from 'vitest';
import { graphemes } from './grapheme-segmenter.js';
import { isLatinText, latinWidth } from './latin-width.js';

const latin = Array.from({ length: 0x100 - 0x20 }, (_, offset) => String.fromCharCode(0x20 + offset)).filter(
  (character) => isLatinText(character),
);
const width = (text: string): number => stringWidth(text, { ambiguousIsNarrow: false });

describe('latinWidth', () => {
  test('gives every printable ASCII and Latin-1 character the width string-width gives it', () => {
    // 95 printable ASCII + 96 Latin-1 from U+00A0, less the soft hyphen.
    expect(latin).toHaveLength(95 + 96 - 1);
    for (const character of latin)
      expect([character, latinWidth(character)]).toEqual([character, width(character)]);
  });

  test('agrees with string-width on mixed and coloured Latin text', () => {
    for (const text of [
      '',
      'total $0.02 · 0:01',
      '  - context 4.6K/1M · total $0.02 · 0:01',
      '\x1b[2m  - context · total\x1b[22m',
      '\x1b[31;1mÆsop × ½\x1b[0m',
      latin.join(''),
    ]) {
      expect([text, latinWidth(text)]).toEqual([text, width(text)]);
    }
  });

  test('leaves other text to string-width', () => {
    for (const text of ['中文', 'e\u0301', '\u00ad', 'a\tb', 'line\r\n', '\x1b]8;;x\x07link', '✓', '…'])
      expect([text, latinWidth(text)]).toEqual([text, null]);
  });
});

describe('graphemes', () => {
  test('splits Latin text into its characters, as the segmenter does', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const text = latin.join('');
    expect([...graphemes(text)]).toEqual([...segmenter.segment(text)].map(({ segment }) => segment));
  });

  test('segments other text into whole graphemes', () => {
    expect([...graphemes('e\u0301x\r\n中')]).toEqual(['e\u0301', 'x', '\r\n', '中']);
  });
});
