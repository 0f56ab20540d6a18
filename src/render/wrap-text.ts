/**
 * Word wrapping for terminal output (docs/cli.md): CJK characters are break points of their own,
 * other text breaks at whitespace, and no line starts with closing punctuation.
 *
 * @module
 */
import { displayWidth } from './display-width.js';
import { graphemes } from './grapheme-segmenter.js';

const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const CLOSING = new Set([
  '。',
  '，',
  '、',
  '；',
  '：',
  '！',
  '？',
  '」',
  '』',
  '）',
  '】',
  '》',
  '〉',
  ',',
  '.',
  ';',
  ':',
  '!',
  '?',
  ')',
  ']',
  '}',
  '%',
  '…',
]);

interface Token {
  text: string;
  /** Whitespace separated this token from the previous one. */
  spaced: boolean;
}

/** Prefixes of wrapped lines: `first` opens the text's first line, `next` every other line. */
export interface WrapPrefix {
  first: string;
  next: string;
  /** Split a word wider than a line by columns (default). False keeps it whole, e.g. a path to copy. */
  splitLongWords?: boolean;
}

/**
 * Wraps plain text (no colour sequences) to `width` columns, prefixes included. Every input line is a
 * paragraph; blank paragraphs are dropped. A word longer than a whole line is split by columns unless
 * `prefix.splitLongWords` is false.
 */
export function wrapText(text: string, width: number, prefix: WrapPrefix): string[] {
  const rows: Token[][] = [];
  const roomOf = (row: number): number =>
    Math.max(1, width - displayWidth(row === 0 ? prefix.first : prefix.next));
  for (const paragraph of text.split('\n')) {
    if (paragraph.trim() === '') continue;
    let row: Token[] = [];
    rows.push(row);
    let used = 0;
    const startRow = (): void => {
      row = [];
      rows.push(row);
      used = 0;
    };
    for (const token of tokenize(paragraph)) {
      const columns = displayWidth(token.text);
      const gap = row.length > 0 && token.spaced ? 1 : 0;
      if (used + gap + columns <= roomOf(rows.length - 1)) {
        row.push(token);
        used += gap + columns;
      } else if (CLOSING.has(token.text) && row.length >= 2) {
        // Carry the previous token down so the punctuation does not open a line.
        const carried = row.pop() as Token;
        startRow();
        row.push({ ...carried, spaced: false }, token);
        used = displayWidth(carried.text) + (token.spaced ? 1 : 0) + columns;
      } else if (columns > roomOf(rows.length) && prefix.splitLongWords !== false) {
        if (row.length > 0) startRow();
        for (const piece of splitByColumns(token.text, roomOf(rows.length - 1))) {
          if (row.length > 0) startRow();
          row.push({ text: piece, spaced: false });
          used = displayWidth(piece);
        }
      } else {
        startRow();
        row.push({ ...token, spaced: false });
        used = columns;
      }
    }
  }
  return rows
    .filter((row) => row.length > 0)
    .map(
      (row, index) =>
        (index === 0 ? prefix.first : prefix.next) +
        row.map((token) => (token.spaced ? ` ${token.text}` : token.text)).join(''),
    );
}

function tokenize(paragraph: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let spaced = false;
  const flush = (): void => {
    if (word === '') return;
    tokens.push({ text: word, spaced });
    word = '';
    spaced = false;
  };
  for (const segment of graphemes(paragraph)) {
    if (/^\s+$/u.test(segment)) {
      flush();
      spaced = tokens.length > 0;
    } else if (CJK.test(segment)) {
      flush();
      tokens.push({ text: segment, spaced });
      spaced = false;
    } else {
      word += segment;
    }
  }
  flush();
  return tokens;
}

function splitByColumns(word: string, room: number): string[] {
  const pieces: string[] = [];
  let current = '';
  let used = 0;
  for (const segment of graphemes(word)) {
    const columns = displayWidth(segment);
    if (used + columns > room && current !== '') {
      pieces.push(current);
      current = '';
      used = 0;
    }
    current += segment;
    used += columns;
  }
  if (current !== '') pieces.push(current);
  return pieces;
}
