/**
 * The terminal renderer: flower events in, text out (docs/cli.md). It is an append-only log — no
 * line it writes is ever rewritten — so the same output is right in a terminal, in tmux, under `nohup` and
 * in a CI log (the CLI's status footer below the log, on a terminal only, is drawn by the footer). Colour
 * when asked for, or by default on a terminal unless `NO_COLOR` (or `TERM=dumb`) is set. There is no
 * cross-terminal write lock (docs/cli.md) yet: each batch is one `write()` call, which keeps
 * lines whole within this process.
 *
 * @module
 */
import picocolors from 'picocolors';
import type { Colors } from 'picocolors/types.js';
import { colorWanted } from '../config/color-wanted.js';
import { uiText, type Lang } from '../config/ui-text.js';
import type { EventSink, FlowerEvent } from '../events/flower-event.js';
import { displayWidth, renderWidth } from './display-width.js';
import { formatEvent, type FormatOptions, type RenderState } from './format-event.js';
import { plainLines, sanitizeLine } from './sanitize.js';
import { sameSpeaker, speakerName, speakerOf, type Speaker } from './speaker.js';
import { wrapText } from './wrap-text.js';

/** Styles for {@link TerminalRenderer.print}. */
export type LineStyle = 'plain' | 'dim' | 'bold' | 'red' | 'yellow' | 'green' | 'cyan';

/** Options of {@link createTerminalRenderer}. */
export interface TerminalRendererOptions {
  /** Also show subagent text, non-error tool results, prompts and subagent lifecycle lines. */
  verbose?: boolean;
  /** Where lines go; `process.stderr` by default (stdout is kept for results). */
  output?: NodeJS.WritableStream;
  /**
   * Colour the output; default: when `output` is a terminal, unless the process environment says otherwise
   * (`NO_COLOR` or `TERM=dumb` turn it off, `FORCE_COLOR` on).
   */
  color?: boolean;
  /** Line width; default from the terminal's columns (`max(40, min(columns, 110))`, 80 when unknown). */
  width?: number;
  /**
   * Wrap and cut lines to the width; default: only when `output` is a terminal or `width` is given. A pipe
   * or a log file has no width, so wrapping its lines at 80 columns would only break them.
   */
  wrap?: boolean;
  lang?: Lang;
  /** Home directory, shown as `~` in paths. */
  home?: string;
  /** Clock in milliseconds, for tests; `Date.now` by default. */
  now?: () => number;
  /** Sees every event before it is rendered (the CLI's status footer); its errors are the caller's. */
  observe?: (event: FlowerEvent) => void;
  /** Called once by {@link TerminalRenderer.close}. */
  onClose?: () => void;
  /**
   * Write a line for each countdown (`waiting`) event of a network wait; default true. The CLI's status
   * footer counts a wait down every second, so beside it a countdown line would only show an older figure:
   * with a footer the events are observed and write nothing.
   */
  countdownLines?: boolean;
}

/** An event sink that writes to a terminal, plus plain lines for the CLI's own messages. */
export interface TerminalRenderer extends EventSink {
  /** Writes CLI lines (plain text) through the same sanitising path as events, whole: paths stay copyable. */
  print(text: string, style?: LineStyle): void;
  /** Writes one line that is already coloured (control sequences other than colour are removed). */
  line(text: string): void;
  /** The running totals the status line shows. */
  readonly state: Readonly<RenderState>;
  /** Stops rendering; later events are ignored. */
  close(): void;
}

/**
 * Creates one renderer for a whole run: its totals and elapsed time accumulate across steps (a renderer per
 * event kept them at zero in the reference, decisions.md D203).
 */
export function createTerminalRenderer(options: TerminalRendererOptions = {}): TerminalRenderer {
  const output = options.output ?? process.stderr;
  const isTerminal = (output as { isTTY?: boolean }).isTTY === true;
  const colors: Colors = picocolors.createColors(options.color ?? colorWanted({ isTTY: isTerminal }));
  const now = options.now ?? Date.now;
  const started = now();
  const state: RenderState = { contextTokens: 0, contextWindow: 0, totalUsd: 0, elapsedS: 0 };
  const width = (): number => options.width ?? renderWidth((output as { columns?: number }).columns);
  const wrap = options.wrap ?? (isTerminal || options.width !== undefined);
  const formatOptions = (): FormatOptions => ({
    verbose: options.verbose ?? false,
    width: width(),
    wrap,
    markdown: wrap,
    colors,
    ...(options.lang === undefined ? {} : { lang: options.lang }),
    ...(options.home === undefined ? {} : { home: options.home }),
  });
  let closed = false;
  // Who spoke last: a speaker line is printed whenever it changes, and a step header starts afresh.
  let speaker: Speaker | null = null;
  // The runtime reports the step's and the run's figures in `cost` events — with every response and just
  // before each `result` — and those are what the manifest records. A result's own `costUsd` is the
  // session's lifetime spend when it was resumed, so it is shown only when no cost event came for its step
  // (a sink fed straight from `normalize`), and the total is then the sum of results.
  let stepCost: { step: string | null; usd: number } | null = null;
  // The run cap stops every later step of the run before it spends anything (the bequest still runs after a
  // stop); the person was told once, and the same line again would read as a second, different stop.
  let runCapShown: string | null = null;

  // The event being rendered; its lines are said by its speaker. CLI lines (`print`, `line`) have none.
  let current: FlowerEvent | null = null;

  const write = (lines: string[], spoken = true): void => {
    if (closed || lines.length === 0) return;
    // Lines come wrapped at word boundaries from their formatters; a word wider than a line (a path) is
    // left whole for the terminal to fold, never cut.
    const safe = lines.map((line) => sanitizeLine(line, { keepColor: true }));
    if (spoken && current !== null) safe.unshift(...speakerLines(current));
    output.write(`${safe.join('\n')}\n`);
  };

  const speakerLines = (event: FlowerEvent): string[] => {
    if (event.kind === 'step') {
      speaker = null;
      return [];
    }
    const said = speakerOf(event.step);
    if (said === null || sameSpeaker(said, speaker)) return [];
    speaker = said;
    const name = uiText('who.line', { who: speakerName(said, options.lang) }, options.lang ?? 'en');
    return [colors.bold(colors.magenta(`  ${name}`))];
  };

  const sink = (event: FlowerEvent): void => {
    if (closed) return;
    options.observe?.(event);
    if (event.kind === 'waiting' && options.countdownLines === false) return;
    current = event;
    state.elapsedS = (now() - started) / 1000;
    if (event.kind === 'context') {
      state.contextTokens = event.tokens;
      if (event.window !== null && event.window > 0) state.contextWindow = event.window;
    }
    if (event.kind === 'handoff' && event.phase === 'done') state.contextTokens = 0;
    if (event.kind === 'cost') {
      stepCost = { step: event.step, usd: event.stepUsd };
      // Only rises: a second runtime feeding this renderer starts its own run total from zero.
      state.totalUsd = Math.max(state.totalUsd, event.runUsd);
      return;
    }
    if (event.kind === 'result') {
      if (stepCost !== null && stepCost.step === event.step) {
        write(formatEvent({ ...event, costUsd: stepCost.usd }, state, formatOptions()));
        return;
      }
      state.totalUsd += event.costUsd;
    }
    if (event.kind === 'budget' && event.scope === 'run') {
      const stop = `${event.capUsd}/${event.spentUsd}`;
      if (stop === runCapShown) return;
      runCapShown = stop;
    }
    write(formatEvent(event, state, formatOptions()));
  };

  const renderer = sink as TerminalRenderer;
  renderer.print = (text: string, style: LineStyle = 'plain'): void => {
    const paint = style === 'plain' ? (line: string) => line : colors[style];
    // On a terminal CLI lines wrap at word boundaries like event lines, an indented line under its own
    // indent; a path or command wider than a line stays whole (it is copied). A pipe gets them unwrapped.
    const lines = plainLines(text).flatMap((line) => {
      if (!wrap || line.trim() === '' || displayWidth(line) <= width()) return [line];
      const indent = /^\s*/.exec(line)?.[0] ?? '';
      const next = indent === '' ? '' : `${indent}  `;
      return wrapText(line.slice(indent.length), width(), { first: indent, next, splitLongWords: false });
    });
    write(
      lines.map((line) => (line === '' ? '' : paint(line))),
      false,
    );
  };
  renderer.line = (text: string): void => {
    write([text], false);
  };
  Object.defineProperty(renderer, 'state', { get: () => ({ ...state, elapsedS: (now() - started) / 1000 }) });
  renderer.close = (): void => {
    if (!closed) options.onClose?.();
    closed = true;
  };
  return renderer;
}
