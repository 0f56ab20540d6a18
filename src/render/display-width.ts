/**
 * Terminal columns: how wide text is on screen and how to make a line fit (docs/cli.md).
 *
 * @module
 */
// The bundled CLI evaluates string-width on its first use, not at start-up (docs/decisions.md D227): its
// regular expressions and segmenter cost a command over 100 ms before its agent could start.
import stringWidth from 'string-width';
import { graphemes } from './grapheme-segmenter.js';
import { latinWidth } from './latin-width.js';

// eslint-disable-next-line no-control-regex -- matching colour sequences is the point
const SGR = /\x1b\[[0-9;]*m/y;

/**
 * Columns `text` takes: East-Asian Wide, Fullwidth and Ambiguous characters count 2 (Ambiguous is 2 because
 * CJK terminals draw it wide, and overestimating never wraps a line by accident); colour sequences count 0.
 */
export function displayWidth(text: string): number {
  // Latin text is measured without evaluating string-width (docs/decisions.md D231).
  return latinWidth(text) ?? stringWidth(text, { ambiguousIsNarrow: false });
}

/** The line width to render at: `max(40, min(columns, 110))`, or 80 when the terminal width is unknown. */
export function renderWidth(columns: number | undefined): number {
  if (columns === undefined || !Number.isFinite(columns) || columns <= 0) return 80;
  return Math.max(40, Math.min(Math.floor(columns), 110));
}

/**
 * `line` cut to at most `width` columns: when it is wider, it keeps `width − 3` columns, adds `...` and, if
 * it contains colour, a reset so the colour does not bleed into the next line. Colour sequences are never
 * split.
 */
export function fitLine(line: string, width: number): string {
  if (displayWidth(line) <= width) return line;
  const budget = Math.max(0, width - 3);
  let used = 0;
  let output = '';
  let index = 0;
  let colored = false;
  while (index < line.length) {
    SGR.lastIndex = index;
    const sequence = SGR.exec(line);
    if (sequence !== null) {
      output += sequence[0];
      colored = true;
      index += sequence[0].length;
      continue;
    }
    const next = nextGrapheme(line, index);
    const columns = displayWidth(next);
    if (used + columns > budget) break;
    output += next;
    used += columns;
    index += next.length;
  }
  return `${output}...${colored ? '\x1b[0m' : ''}`;
}

function nextGrapheme(text: string, index: number): string {
  // Segment a bounded window: segmenting the whole rest of a long line per character would be quadratic.
  const window = text.slice(index, index + 32);
  for (const grapheme of graphemes(window)) return grapheme;
  return window;
}
