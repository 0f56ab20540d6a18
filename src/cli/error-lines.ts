/**
 * flower's own error lines, written where the renderer is not (a failure before or outside a run): on a
 * terminal wrapped at word boundaries like every other line, so the terminal never folds a word in two;
 * into a pipe or a file whole. The wrapping modules load only here, on the error path, so `--help` and
 * `--version` never pay for them.
 *
 * @module
 */
import type { OutputStream } from './cli-io.js';

/** Writes `text` (one or more lines) to `stream`, wrapped to the terminal's width when it is one. */
export async function writeErrorLines(stream: OutputStream, text: string): Promise<void> {
  if (stream.isTTY !== true) {
    stream.write(`${text}\n`);
    return;
  }
  const [{ wrapText }, { renderWidth }] = await Promise.all([
    import('../render/wrap-text.js'),
    import('../render/display-width.js'),
  ]);
  const width = renderWidth(stream.columns);
  const lines = text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [line];
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    // A path or an address wider than the line stays whole: it is what a person copies from an error.
    return wrapText(line.slice(indent.length), width, {
      first: indent,
      next: `${indent}  `,
      splitLongWords: false,
    });
  });
  stream.write(`${lines.join('\n')}\n`);
}
