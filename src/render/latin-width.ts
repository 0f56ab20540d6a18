/**
 * Widths of printable ASCII and Latin-1 text without string-width or a segmenter: most of what a run prints
 * (tool calls, costs, the status line's `·`) is such text, and the first call into string-width evaluates
 * its Unicode-set regular expressions and builds an `Intl.Segmenter` — about 150 ms of the main thread,
 * which on a `once` run falls while Claude Code waits for flower's answer to its first tool hook
 * (docs/decisions.md D231). Every character here is a grapheme of its own and its width is the one
 * string-width gives it with Ambiguous counted wide (`test/unit` compares both on every one of them).
 *
 * @module
 */

/** Printable ASCII and Latin-1 after the C1 controls, except the soft hyphen (zero columns). */
const LATIN = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u00ff]*$/;

// Colour sequences take no columns; any other escape sends the text to string-width.
// eslint-disable-next-line no-control-regex -- matching colour sequences is the point
const SGR = /\x1b\[[0-9;]*m/g;

/** The Latin-1 characters East Asian Width calls Ambiguous: two columns, as CJK terminals draw them. */
const AMBIGUOUS = new Set([
  0xa1, 0xa4, 0xa7, 0xa8, 0xaa, 0xae, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbc, 0xbd,
  0xbe, 0xbf, 0xc6, 0xd0, 0xd7, 0xd8, 0xde, 0xdf, 0xe0, 0xe1, 0xe6, 0xe8, 0xe9, 0xea, 0xec, 0xed, 0xf0, 0xf2,
  0xf3, 0xf7, 0xf8, 0xf9, 0xfa, 0xfc, 0xfe,
]);

/** True when every character of `text` is printable ASCII or Latin-1 (so each is a grapheme of its own). */
export function isLatinText(text: string): boolean {
  return LATIN.test(text);
}

/** Columns `text` takes when it is Latin text, colour sequences aside (see the module); otherwise null. */
export function latinWidth(text: string): number | null {
  const plain = text.includes('\x1b') ? text.replace(SGR, '') : text;
  if (!LATIN.test(plain)) return null;
  let width = plain.length;
  if (/[^\u0020-\u007e]/.test(plain)) {
    for (let index = 0; index < plain.length; index++) if (AMBIGUOUS.has(plain.charCodeAt(index))) width++;
  }
  return width;
}
