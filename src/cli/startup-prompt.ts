/**
 * The startup prompt of `go` (docs/cli.md): with no request on the command line, one line is
 * read from standard input — never through the shell, so quotes, `!` and CJK text are typed freely.
 *
 * On a terminal a header says what is expected (fresh or waking directory) and the line is edited after
 * `> ` in character mode, with the same editor as the live input line; Ctrl-C or Ctrl-D on an empty line
 * cancel. From a pipe nothing is drawn: the first line is the request and the rest of the input is put
 * back unread, for the live input line that reads the rest of the run.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import { LineEditor } from './line-editor.js';
import type { LiveInputOutput, LiveInputStream } from './live-input.js';
import { drawPrompt, erasePrompt } from './prompt-drawing.js';

/** What the line is read after, on a terminal. */
export const PROMPT_MARK = '> ';

/** Options of {@link readStartupLine}. */
export interface StartupPromptOptions {
  /** Standard input; none means nothing can be typed (read as end of input). */
  input: LiveInputStream | undefined;
  /** Where the header and the prompt go (standard error). */
  output: LiveInputOutput;
  /** Standard input is a terminal: header, character mode and line editing. */
  isTty: boolean;
  /** The directory has a confirmed brief: the header offers to continue. */
  waking: boolean;
  lang: Lang;
}

/**
 * Reads one line; resolves to its text (untrimmed), or null when the user cancelled (Ctrl-C, or end of
 * input before anything was entered).
 */
export async function readStartupLine(options: StartupPromptOptions): Promise<string | null> {
  const { input, output } = options;
  if (input === undefined) return null;
  if (!options.isTty) return readPipedLine(input);
  // Character mode before anything is shown: a key pressed as soon as the header appears must already be
  // a key (Ctrl-C a byte, not a signal that kills the process).
  setRaw(input, true);
  output.write(`${uiText(options.waking ? 'prompt.wake' : 'prompt.fresh', {}, options.lang)}\n`);
  return readTerminalLine(input, output);
}

/** The first line of a pipe; the bytes after it are pushed back onto the stream. */
function readPipedLine(input: LiveInputStream): Promise<string | null> {
  if (isEnded(input)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const finish = (line: string | null, rest: Buffer | null): void => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      if (rest !== null && rest.length > 0) input.unshift(rest);
      resolve(line);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      const newline = bytes.indexOf(0x0a);
      if (newline < 0) {
        chunks.push(bytes);
        return;
      }
      chunks.push(bytes.subarray(0, newline));
      finish(lineText(Buffer.concat(chunks)), bytes.subarray(newline + 1));
    };
    const onEnd = (): void => {
      // A last line without a newline is still a line (`printf 'X' | flower`); no bytes at all is EOF.
      const rest = Buffer.concat(chunks);
      finish(rest.length > 0 ? lineText(rest) : null, null);
    };
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}

/** One line typed on a terminal (already in character mode), edited; null for Ctrl-C or Ctrl-D. */
function readTerminalLine(input: LiveInputStream, output: LiveInputOutput): Promise<string | null> {
  const editor = new LineEditor();
  let row = 0;
  const draw = (): void => {
    const drawing = drawPrompt(PROMPT_MARK, editor.beforeCursor, editor.afterCursor, output.columns);
    output.write(`${erasePrompt(row)}${drawing.text}`);
    row = drawing.cursorRow;
  };
  return new Promise((resolve) => {
    const finish = (line: string | null, rest: Buffer): void => {
      input.off('data', onData);
      input.off('end', onEnd);
      setRaw(input, false);
      input.pause();
      // Keys typed (or pasted) after Enter belong to whoever reads next: the prompt again, or the live line.
      if (line !== null && rest.length > 0) input.unshift(rest);
      // The typed line stays on screen; a cancelled one is closed with a newline before the message.
      output.write('\n');
      resolve(line);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      let dirty = false;
      // Byte by byte, so the bytes after Enter can be handed back (the editor decodes UTF-8 incrementally).
      for (let index = 0; index < bytes.length; index++) {
        for (const action of editor.feed(bytes.subarray(index, index + 1))) {
          if (action.kind === 'submit') {
            // The line as entered stays on screen, also when it arrived in one read with its Enter.
            output.write(`${erasePrompt(row)}${PROMPT_MARK}${action.line}`);
            // CR LF is one Enter: its LF must not reach the next reader as an empty line.
            const crlf = bytes[index] === 0x0d && bytes[index + 1] === 0x0a;
            return finish(action.line, bytes.subarray(index + (crlf ? 2 : 1)));
          }
          if (action.kind === 'interrupt' || action.kind === 'eof') return finish(null, bytes.subarray(0, 0));
          dirty = true;
        }
      }
      if (dirty) draw();
    };
    const onEnd = (): void => finish(null, Buffer.alloc(0));
    draw();
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}

function lineText(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/\r$/, '');
}

function isEnded(input: LiveInputStream): boolean {
  return (input as { readableEnded?: boolean }).readableEnded === true;
}

function setRaw(input: LiveInputStream, mode: boolean): void {
  try {
    input.setRawMode?.(mode);
  } catch {
    // A terminal that went away has no mode to restore.
  }
}
