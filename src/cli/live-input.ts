/**
 * The live input line during `go` and `run` (docs/human-channel.md). It reads standard input for the
 * whole run — not only while a question waits, or text typed ahead would be taken as the next answer — and
 * routes each line ({@link routeLine}) to the waiting question, the agent's inbox, the side-question oracle
 * or a pending interrupt.
 *
 * On a terminal it switches to character mode before it starts reading (switching inside the reader races
 * with the first keystrokes), edits the line itself ({@link LineEditor}) and keeps the prompt as the last
 * screen line: every write above it erases it and draws it again with the half-typed text. That only works
 * if everything written to the screen goes through {@link LiveInput.output} or {@link LiveInput.writeAbove}.
 * In character mode Ctrl-C arrives as a byte, not a signal: the first press interrupts the running step
 * (the next line typed is the message), a second press — while that message is still awaited, or within
 * 2 s — quits (decisions.md D12). Without a terminal, lines are read as they come and nothing is drawn.
 *
 * @module
 */
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';

import { uiText, type CatalogKey, type Lang } from '../config/ui-text.js';
import type { HumanChannel } from '../human/human-channel.js';
import { wrapText } from '../render/wrap-text.js';
import { LineEditor } from './line-editor.js';
import { drawPrompt, erasePrompt } from './prompt-drawing.js';
import { INPUT_CLOSED, routeLine } from './route-line.js';

/** The input stream; a terminal has `isTTY` and `setRawMode`. */
export type LiveInputStream = NodeJS.ReadableStream & {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
};

/** Where the prompt and receipts go (the stream the renderer writes to). */
export interface LiveInputOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Options of {@link startLiveInput}. */
export interface LiveInputOptions {
  input: LiveInputStream;
  output: LiveInputOutput;
  /** The run's human channel; null when the workflow has none (lines then only serve interrupts). */
  channel: HumanChannel | null;
  /** Interrupts the running step; the message may still be being typed. False when nothing runs. */
  interrupt: ((message: string | PromiseLike<string>) => boolean) | null;
  /** Starts a side question (it runs concurrently; the run never waits). Null: not available here. */
  onSide: ((question: string) => void) | null;
  lang?: Lang;
  /**
   * Ctrl-C meaning "quit": a second press, or a press with nothing to interrupt. Default: restore the terminal
   * and send SIGINT to this process, whose handler rescues the manifest and exits 130.
   */
  onQuit?: () => void;
  /** Character mode with a line editor; default: when `input` is a terminal. */
  characterMode?: boolean;
  /** Milliseconds, for the double-press window; `Date.now` by default. */
  now?: () => number;
  /** The status line drawn just above the prompt ('' for none); one row, never wider than the terminal. */
  status?: () => string;
}

/** A running live input line. */
export interface LiveInput {
  /** A stream for the renderer: each write lands above the prompt (erase, write, redraw — one write call). */
  readonly output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Writes complete lines above the prompt and redraws it. */
  writeAbove(text: string): void;
  /** The prompt and the half-typed text, without control sequences; '' when no prompt is shown. */
  promptLine(): string;
  /** Ctrl-C: interrupt on the first press, quit on the second. For a SIGINT that arrives as a signal. */
  requestInterrupt(): void;
  /** Redraws the prompt, for a change the output did not carry (it is redrawn on every write anyway). */
  refresh(): void;
  /** Stops reading, removes the prompt and restores the terminal mode. Idempotent; declines nothing. */
  close(): void;
  /** Settles when reading stops: end of input or {@link close}. */
  readonly closed: Promise<void>;
}

/** A second Ctrl-C within this many milliseconds quits (decisions.md D12). */
export const DOUBLE_PRESS_MS = 2000;

/** Starts reading `input` for the rest of the run; see the module comment. */
export function startLiveInput(options: LiveInputOptions): LiveInput {
  return new LiveInputLine(options);
}

class LiveInputLine implements LiveInput {
  readonly output: LiveInput['output'];
  readonly closed: Promise<void>;
  readonly #options: LiveInputOptions;
  readonly #lang: Lang;
  readonly #now: () => number;
  readonly #editor: LineEditor | null;
  #reader: Interface | null = null;
  #reading = true;
  /** The prompt is on screen, with the cursor on this row of it. */
  #drawnRow: number | null = null;
  /** Resolves the pending interrupt's message; null when no interrupt waits for one. */
  #interruptMessage: ((message: string) => void) | null = null;
  /** Interrupts so far, so each one's hint line is shown once. */
  #interrupts = 0;
  /** The hint lines already on screen: each is shown once, above the short prompt, and left in the scrollback. */
  readonly #hintsShown = new Set<string>();
  #lastPress: number | null = null;
  #endReading: () => void = () => undefined;
  readonly #onData = (chunk: Buffer | string): void => this.#keys(chunk);
  readonly #restoreOnExit = (): void => this.#setRaw(false);

  constructor(options: LiveInputOptions) {
    this.#options = options;
    this.#lang = options.lang ?? 'en';
    this.#now = options.now ?? Date.now;
    this.closed = new Promise((resolve) => {
      this.#endReading = resolve;
    });
    this.output = aboveStream(this, options.output);
    const characterMode = options.characterMode ?? options.input.isTTY === true;
    this.#editor = characterMode ? new LineEditor() : null;
    if (this.#editor !== null) {
      // Character mode first, then read: keystrokes typed in between would otherwise be echoed and cooked.
      this.#setRaw(true);
      process.on('exit', this.#restoreOnExit);
      options.input.on('data', this.#onData);
      options.input.resume();
      this.#redraw();
    } else {
      this.#reader = createInterface({ input: options.input, terminal: false, crlfDelay: Infinity });
      this.#reader.on('line', (line) => this.#line(line));
      this.#reader.on('close', () => {
        if (this.#reading) this.#line(null);
      });
    }
  }

  writeAbove(text: string): void {
    if (text === '') return;
    let sequence = this.#erase() + text;
    if (text.endsWith('\n')) sequence += this.#draw();
    this.#options.output.write(sequence);
  }

  promptLine(): string {
    if (!this.#promptShown()) return '';
    return `${this.#promptText()}${this.#editor?.text ?? ''}`;
  }

  requestInterrupt(): void {
    const now = this.#now();
    const recent = this.#lastPress !== null && now - this.#lastPress < DOUBLE_PRESS_MS;
    this.#lastPress = now;
    if (this.#interruptMessage !== null || recent) {
      this.#quit();
      return;
    }
    let resolveMessage: (message: string) => void = () => undefined;
    const message = new Promise<string>((resolve) => {
      resolveMessage = resolve;
    });
    let accepted: boolean;
    try {
      accepted = this.#options.interrupt?.(message) ?? false;
    } catch {
      accepted = false;
    }
    // Nothing running to interrupt (or no runtime at all): Ctrl-C keeps its ordinary meaning.
    if (!accepted) {
      this.#quit();
      return;
    }
    this.#interruptMessage = resolveMessage;
    this.#interrupts += 1;
    // Without a prompt on screen (no terminal) the next line read is still the message.
    this.refresh();
  }

  refresh(): void {
    if (!this.#promptShown()) return;
    this.#options.output.write(this.#erase() + this.#draw());
  }

  close(): void {
    this.#stopReading();
  }

  #keys(chunk: Buffer | string): void {
    const editor = this.#editor;
    if (editor === null || !this.#reading) return;
    let dirty = false;
    for (const action of editor.feed(chunk)) {
      if (!this.#reading) return;
      if (action.kind === 'redraw') dirty = true;
      else if (action.kind === 'interrupt') this.requestInterrupt();
      else if (action.kind === 'eof') this.#line(null);
      else {
        // Enter: the line stays on screen as typed, below it the output and a fresh prompt.
        const typed = `${this.#promptText()}${action.line}`;
        this.#options.output.write(`${this.#erase()}${typed}\n`);
        this.#line(action.line);
        dirty = false;
      }
    }
    if (this.#promptShown() && (dirty || this.#drawnRow === null)) this.refresh();
  }

  /** Carries out the route of one line (`null` = end of input). */
  #line(line: string | null): void {
    const channel = this.#options.channel;
    const route = routeLine(line, {
      interruptPending: this.#interruptMessage !== null,
      questions: channel?.pending() ?? [],
    });
    switch (route.kind) {
      case 'interrupt': {
        this.#settleInterrupt(route.message);
        const waiting = channel?.pending().length ?? 0;
        this.#print('int.done');
        if (waiting > 0) this.#print('int.pending', { n: waiting });
        return;
      }
      case 'answer':
        channel?.answer(route.askId, route.text);
        return;
      case 'decline':
        channel?.decline(route.askId);
        return;
      case 'oracle':
        if (this.#options.onSide === null) this.#print('aside.unwired');
        else this.#options.onSide(route.question);
        return;
      case 'inbox': {
        if (channel === null) {
          this.#print('live.noInbox');
          return;
        }
        channel.send(route.text);
        const note = uiText(channel.amendPath === null ? 'live.noBrief' : 'live.amended', {}, this.#lang);
        this.#print('live.received', { note });
        return;
      }
      case 'ignore':
        return;
      case 'eof':
        if (route.interrupt) this.#settleInterrupt('');
        for (const askId of route.decline) channel?.decline(askId, INPUT_CLOSED);
        this.#stopReading();
        return;
    }
  }

  #settleInterrupt(message: string): void {
    const resolve = this.#interruptMessage;
    this.#interruptMessage = null;
    resolve?.(message);
  }

  #quit(): void {
    if (this.#options.onQuit !== undefined) {
      this.#options.onQuit();
      return;
    }
    this.close();
    process.kill(process.pid, 'SIGINT');
  }

  #print(key: CatalogKey, vars: Record<string, string | number> = {}): void {
    this.writeAbove(`${uiText(key, vars, this.#lang)}\n`);
  }

  #promptShown(): boolean {
    return this.#editor !== null && this.#reading;
  }

  /** The prompt itself is short, so typing starts on the same line even at 60 columns. */
  #promptText(): string {
    return uiText('live.mark', {}, this.#lang);
  }

  /** What the prompt is waiting for, as a hint line, and the key under which it is shown once. */
  #hint(): { key: string; text: string } {
    if (this.#interruptMessage !== null) {
      return { key: `interrupt:${this.#interrupts}`, text: uiText('live.interrupt', {}, this.#lang) };
    }
    const [question] = this.#options.channel?.pending() ?? [];
    if (question !== undefined)
      return { key: `answer:${question.id}`, text: uiText('live.answer', {}, this.#lang) };
    return { key: 'idle', text: uiText('live.idle', {}, this.#lang) };
  }

  /** The hint line for the prompt's current purpose, wrapped at word boundaries, the first time only. */
  #hintLines(): string {
    const hint = this.#hint();
    if (this.#hintsShown.has(hint.key)) return '';
    this.#hintsShown.add(hint.key);
    const columns = this.#options.output.columns;
    const width = columns !== undefined && columns > 0 ? columns : Number.POSITIVE_INFINITY;
    return `${wrapText(hint.text, width, { first: '', next: '', splitLongWords: false }).join('\n')}\n`;
  }

  #draw(): string {
    const editor = this.#editor;
    if (editor === null || !this.#reading) return '';
    const hint = this.#hintLines();
    const drawing = drawPrompt(
      this.#promptText(),
      editor.beforeCursor,
      editor.afterCursor,
      this.#options.output.columns,
    );
    // The status line sits on the row above the prompt, so erasing starts one row higher.
    const status = this.#options.status?.() ?? '';
    this.#drawnRow = drawing.cursorRow + (status === '' ? 0 : 1);
    return hint + (status === '' ? '' : `${status}\n`) + drawing.text;
  }

  #erase(): string {
    if (this.#drawnRow === null) return '';
    const sequence = erasePrompt(this.#drawnRow);
    this.#drawnRow = null;
    return sequence;
  }

  #redraw(): void {
    this.#options.output.write(this.#erase() + this.#draw());
  }

  #stopReading(): void {
    if (!this.#reading) return;
    this.#reading = false;
    const erase = this.#erase();
    if (erase !== '') this.#options.output.write(erase);
    if (this.#editor !== null) {
      this.#options.input.off('data', this.#onData);
      this.#setRaw(false);
      process.off('exit', this.#restoreOnExit);
    }
    this.#reader?.close();
    this.#options.input.pause();
    this.#settleInterrupt('');
    this.#endReading();
  }

  #setRaw(mode: boolean): void {
    try {
      this.#options.input.setRawMode?.(mode);
    } catch {
      // A terminal that went away cannot be restored; there is nothing left to protect.
    }
  }
}

/** A writable stream whose writes go above `live`'s prompt, with the terminal facts of `target`. */
function aboveStream(live: LiveInput, target: LiveInputOutput): LiveInput['output'] {
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      live.writeAbove(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  Object.defineProperty(stream, 'isTTY', { get: () => target.isTTY, enumerable: true });
  Object.defineProperty(stream, 'columns', { get: () => target.columns, enumerable: true });
  return stream as LiveInput['output'];
}
