/**
 * The status footer: the {@link ActivityLine} kept as the last screen line of a terminal while a step runs
 * (the live input line's neighbour, just above its prompt), redrawn every second and with every event, so
 * a slow reply and a hung one look different. It never enters the scrollback: every write erases it first
 * and draws it again below what was written, the end of the step clears it, and so does the process's exit.
 * Only for a terminal: a pipe or a log file gets no footer at all (the CLI does not create one).
 *
 * While the live input line is on screen it draws the footer itself, above its prompt ({@link
 * StatusFooter.attach}); the footer only asks it to redraw every second.
 *
 * @module
 */
import picocolors from 'picocolors';
import type { Lang } from '../config/ui-text.js';
import type { FlowerEvent } from '../events/flower-event.js';
import { ActivityLine } from '../render/activity-line.js';
import type { RelayTarget } from './output-relay.js';

/** How often the footer is redrawn when nothing else happens: its clocks tick in seconds. */
export const FOOTER_INTERVAL_MS = 1000;

const ERASE_LINE = '\r\x1b[2K';

/** The terminal the footer draws on. */
export interface FooterTerminal {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Options of {@link createStatusFooter}. */
export interface StatusFooterOptions {
  terminal: FooterTerminal;
  color: boolean;
  lang?: Lang;
  /** Clock in epoch milliseconds; `Date.now` by default. */
  now?: () => number;
}

/** A footer on a terminal. */
export interface StatusFooter {
  /** Writes to the terminal with the footer kept below the last complete line; for the renderer's relay. */
  readonly output: RelayTarget;
  /** Takes in an event (the renderer passes on every one) and redraws. */
  observe(event: FlowerEvent): void;
  /** The footer as it should look now, coloured; '' while no step runs. */
  line(): string;
  /**
   * Hands the drawing to another owner of the bottom of the screen (the live input line), which draws
   * {@link StatusFooter.line} itself; `redraw` is called every second. `null` takes it back.
   */
  attach(redraw: (() => void) | null): void;
  /** Stops the clock and erases the footer. Idempotent. */
  close(): void;
}

/** Creates a footer drawing on `terminal`, ticking every second (the timer never keeps the process alive). */
export function createStatusFooter(options: StatusFooterOptions): StatusFooter {
  const { terminal } = options;
  const now = options.now ?? Date.now;
  const colors = picocolors.createColors(options.color);
  const activity = new ActivityLine(options.lang ?? 'en');
  let drawn = false;
  // A write that did not end its line leaves the cursor inside it: drawing there would break the line.
  let atLineStart = true;
  let attached: (() => void) | null = null;
  let closed = false;

  const line = (): string => {
    if (closed) return '';
    const text = activity.text(now(), terminal.columns ?? 80);
    return text === '' ? '' : colors.dim(text);
  };
  const erase = (): string => {
    if (!drawn) return '';
    drawn = false;
    return ERASE_LINE;
  };
  const draw = (): string => {
    const text = line();
    drawn = text !== '';
    return text;
  };
  const redraw = (): void => {
    if (attached !== null) {
      attached();
      return;
    }
    if (!atLineStart) return;
    const sequence = erase() + draw();
    if (sequence !== '') terminal.write(sequence);
  };
  const eraseOnExit = (): void => {
    const sequence = erase();
    if (sequence !== '') terminal.write(sequence);
  };

  const timer = setInterval(redraw, FOOTER_INTERVAL_MS);
  timer.unref();
  process.on('exit', eraseOnExit);

  const output: RelayTarget = {
    write(text: string): unknown {
      if (attached !== null || closed) return terminal.write(text);
      if (text !== '') atLineStart = text.endsWith('\n');
      return terminal.write(erase() + text + (atLineStart ? draw() : ''));
    },
  };
  Object.defineProperty(output, 'isTTY', { get: () => terminal.isTTY, enumerable: true });
  Object.defineProperty(output, 'columns', { get: () => terminal.columns, enumerable: true });

  return {
    output,
    observe(event) {
      activity.observe(event, now());
      // A stream event prints nothing, so nothing else would show its count.
      if (event.kind === 'stream') redraw();
    },
    line,
    attach(next) {
      if (next !== null) eraseOnExit();
      attached = next;
    },
    close() {
      if (closed) return;
      clearInterval(timer);
      process.off('exit', eraseOnExit);
      eraseOnExit();
      closed = true;
    },
  };
}
