/**
 * Drawing and erasing the live input line (docs/human-channel.md): the last screen line is the prompt plus
 * the half-typed text, with the cursor where the typist left it. Every write above it erases it and draws
 * it again. A prompt wider than the terminal wraps onto several rows, so erasing goes back to the prompt's
 * first row and clears to the end of the screen, and the cursor is placed by row and column rather than
 * by moving left (which stops at the start of a row).
 *
 * @module
 */
import { displayWidth } from '../render/display-width.js';

const CSI = '\x1b[';

/** What to write to draw the prompt, and the row (0 = the prompt's first) the cursor is left on. */
export interface PromptDrawing {
  text: string;
  cursorRow: number;
}

/**
 * Draws `prompt` + `before` + `after` from the start of an empty line and puts the cursor between `before`
 * and `after`. `columns` is the terminal width (undefined or ≤ 0 when unknown: the line is taken not to
 * wrap).
 */
export function drawPrompt(
  prompt: string,
  before: string,
  after: string,
  columns: number | undefined,
): PromptDrawing {
  const text = `${prompt}${before}${after}`;
  const afterWidth = displayWidth(after);
  if (columns === undefined || !Number.isFinite(columns) || columns <= 0) {
    return { text: afterWidth > 0 ? `${text}${CSI}${afterWidth}D` : text, cursorRow: 0 };
  }
  const width = Math.floor(columns);
  const total = displayWidth(text);
  // A line that exactly fills its last row leaves the cursor on that row (the wrap is pending).
  const endRow = total > 0 && total % width === 0 ? total / width - 1 : Math.floor(total / width);
  if (afterWidth === 0) return { text, cursorRow: endRow };
  const target = total - afterWidth;
  const row = Math.floor(target / width);
  const up = endRow - row;
  return { text: `${text}${up > 0 ? `${CSI}${up}A` : ''}${CSI}${(target % width) + 1}G`, cursorRow: row };
}

/** Erases a prompt drawn by {@link drawPrompt} whose cursor is on `cursorRow`, leaving the cursor at its start. */
export function erasePrompt(cursorRow: number): string {
  return `\r${cursorRow > 0 ? `${CSI}${cursorRow}A` : ''}${CSI}J`;
}
