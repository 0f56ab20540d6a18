/**
 * One grapheme segmenter for the renderer, made on first use: constructing an `Intl.Segmenter` loads ICU's
 * break data (tens of milliseconds), which a command must not pay before its agent starts (docs/cli.md,
 * "Start-up time").
 *
 * @module
 */

import { isLatinText } from './latin-width.js';

let segmenter: Intl.Segmenter | undefined;

/** The shared grapheme segmenter, constructed the first time it is asked for. */
export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

/**
 * The graphemes of `text`: of Latin text (printable ASCII and Latin-1) its characters, each a grapheme of its
 * own, without building the segmenter (docs/decisions.md D231); of other text, the segmenter's.
 */
export function* graphemes(text: string): Generator<string, void, undefined> {
  if (isLatinText(text)) {
    for (let index = 0; index < text.length; index++) yield text.charAt(index);
    return;
  }
  for (const { segment } of graphemeSegmenter().segment(text)) yield segment;
}
