/**
 * One grapheme segmenter for the renderer, made on first use: constructing an `Intl.Segmenter` loads ICU's
 * break data (tens of milliseconds), which a command must not pay before its agent starts (docs/cli.md,
 * "Start-up time").
 *
 * @module
 */

let segmenter: Intl.Segmenter | undefined;

/** The shared grapheme segmenter, constructed the first time it is asked for. */
export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}
