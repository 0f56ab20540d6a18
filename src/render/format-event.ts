/**
 * Pure formatters: one event and the renderer's running totals in, screen lines out
 * (docs/cli.md). No I/O here, so every format is testable as a plain function.
 *
 * @module
 */
import type { Colors } from 'picocolors/types.js';
import { uiText, type Lang } from '../config/ui-text.js';
import type { FlowerEvent, HandoffEvent, Thread } from '../events/flower-event.js';
import { valueText } from '../internal/value-text.js';
import { displayWidth, fitLine } from './display-width.js';
import { formatContext, formatContextOf, formatElapsed, formatUsd } from './format-numbers.js';
import { markdownLines } from './markdown-lines.js';
import { plainLines, sanitizeLine } from './sanitize.js';
import { speakerName } from './speaker.js';
import { wrapText, type WrapPrefix } from './wrap-text.js';

/** What the renderer has seen so far; the status line shows it. */
export interface RenderState {
  /** Latest main-thread context size in tokens; 0 = unknown. */
  contextTokens: number;
  /** The context window that size is measured against (where a handoff comes); 0 = unknown. */
  contextWindow?: number;
  /** Dollars spent so far in this run. */
  totalUsd: number;
  /** Seconds since the renderer was created. */
  elapsedS: number;
}

/** How to format. */
export interface FormatOptions {
  verbose: boolean;
  /** Line width in columns (see `renderWidth`). */
  width: number;
  /**
   * Wrap and cut lines to `width` (default true). False for output that is not a terminal: a pipe or a log
   * file has no width, so its lines are written whole; `width` then only sizes the step header's bar.
   */
  wrap?: boolean;
  colors: Colors;
  /**
   * Draw the model's Markdown (headings, bold, lists, code) instead of showing its source; default false.
   * Only for a terminal: a pipe or a log file gets the text as the model wrote it.
   */
  markdown?: boolean;
  lang?: Lang;
  /** Home directory, shown as `~` in paths. */
  home?: string;
}

const GUTTER = '  | ';

/** The columns a line may fill: the width, or no limit when wrapping is off. */
function lineRoom(options: FormatOptions): number {
  return options.wrap === false ? Number.POSITIVE_INFINITY : options.width;
}

/** The status line: `  - context 36.8K/200K · total $0.12 · 0:07` (context only when known). */
export function formatStatusLine(state: RenderState, options: FormatOptions): string {
  const fields: string[] = [];
  if (state.contextTokens > 0)
    fields.push(
      `${text('st.context', options)} ${formatContextOf(state.contextTokens, state.contextWindow)}`,
    );
  fields.push(`${text('st.total', options)} $${formatUsd(state.totalUsd, 2)}`);
  fields.push(formatElapsed(state.elapsedS));
  return options.colors.dim(`  - ${fields.join(' · ')}`);
}

/** Screen lines for `event`, coloured; [] when the event is not shown at this verbosity. */
export function formatEvent(event: FlowerEvent, state: RenderState, options: FormatOptions): string[] {
  const { colors, verbose } = options;
  switch (event.kind) {
    case 'text':
      if (event.subagent) return verbose ? modelText(event.text, options, GUTTER).map(colors.dim) : [];
      return [...modelText(event.text, options, '  '), formatStatusLine(state, options)];
    case 'thinking':
      return event.subagent ? [] : wrap(event.text, options, '  ~ ', '    ').map(colors.cyan);
    case 'prompt':
      return verbose
        ? wrap(event.text, options, threadPad(event, '  > '), threadPad(event, '    ')).map(colors.dim)
        : [];
    case 'tool_call':
      return [formatToolCall(event, options)];
    case 'tool_result': {
      if (event.isError)
        return wrap(event.text, options, threadPad(event, 'x '), threadPad(event, '  ')).map(colors.red);
      return verbose
        ? wrap(event.text, options, threadPad(event, '  '), threadPad(event, '  ')).map(colors.dim)
        : [];
    }
    case 'error':
    case 'budget':
      return wrap(event.text, options, '  ! ', '    ').map(colors.red);
    case 'warning':
      return wrap(event.text, options, '  ! ', '    ').map(colors.yellow);
    case 'retry':
    case 'reset':
    case 'wait':
    case 'waiting':
    case 'recovered':
    case 'usage_limit':
    case 'stall':
      return wrap(event.text, options, '  ~ ', '    ').map(colors.yellow);
    case 'task':
      return event.text.trim() === '' ? [] : wrap(event.text, options, '  # ', '    ').map(colors.magenta);
    case 'result':
      return [
        formatResultLine(event.isError, event.numTurns, event.costUsd, state, options),
        formatStatusLine(state, options),
      ];
    case 'step':
      return formatStepHeader(
        event.name,
        event.index,
        event.total,
        event.resumed ? event.woke : null,
        options,
      );
    case 'handoff':
      return formatHandoff(event, options);
    case 'ask': {
      const lines = [
        '',
        ...wrap(event.question, options, '  ? ', '    ').map((line) => colors.bold(colors.yellow(line))),
      ];
      event.options.forEach((option, index) =>
        lines.push(...wrap(option, options, `     ${index + 1}) `, '        ')),
      );
      if (event.remaining >= 0)
        lines.push(colors.dim(`     (${text('ask.left', options, { n: event.remaining })})`));
      return lines;
    }
    case 'answer':
      return formatAnswer(event.state, event.answer, options);
    case 'mail': {
      // A queued line was already acknowledged where it was typed (the live input line's "+ Received …");
      // the screen says it again only when the agent takes it.
      if (event.state === 'queued') return [];
      const label = text('ask.mail.delivered', options);
      return wrap(`${label} ${single(event.text)}`, options, '  + ', '    ').map(colors.green);
    }
    case 'verdict': {
      if (event.text.trim() === '') return [];
      // Said in the judge's name: the line follows the coordinator's output inside the same step header.
      const said = text('who.verdict', options, {
        who: speakerName({ role: 'judge', round: null }, options.lang),
        text: event.text,
      });
      return wrap(said, options, '  = ', '    ').map(colors.bold);
    }
    case 'subagent_start':
    case 'subagent_stop':
    case 'spill':
    case 'trim':
      return verbose && event.text.trim() !== ''
        ? wrap(event.text, options, GUTTER, GUTTER).map(colors.dim)
        : [];
    default:
      // context, cost, step_end, system, unknown: state only, or nothing to show.
      return [];
  }
}

/** `  + done 3 turns · $0.0123 · elapsed 0:07` (green), or `  x failed …` (red). */
export function formatResultLine(
  failed: boolean,
  turns: number,
  costUsd: number,
  state: RenderState,
  options: FormatOptions,
): string {
  const { colors } = options;
  const head = failed
    ? colors.red(`  x ${text('res.failed', options)}`)
    : colors.green(`  + ${text('res.done', options)}`);
  const tail = ` ${turns} ${text(turns === 1 ? 'res.turn' : 'res.turns', options)} · $${formatUsd(costUsd, 4)} · ${text('res.elapsed', options)} ${formatElapsed(state.elapsedS)}`;
  return head + colors.dim(tail);
}

/** The step header: blank, `== <name> ====… <i/total>`, blank. */
export function formatStepHeader(
  name: string,
  index: number,
  total: number,
  woke: number | null,
  options: FormatOptions,
): string[] {
  const { colors } = options;
  const tail = `${index}/${total}${woke === null ? '' : `  <- ${text('step.resumed', options, { n: woke })}`}`;
  const bar = '='.repeat(Math.max(4, options.width - displayWidth(name) - displayWidth(tail) - 6));
  const header = colors.bold(colors.cyan(`== ${single(name)} ${bar}`)) + colors.dim(` ${tail}`);
  return ['', options.wrap === false ? header : fitLine(header, options.width), ''];
}

function formatToolCall(event: Extract<FlowerEvent, { kind: 'tool_call' }>, options: FormatOptions): string {
  const { colors } = options;
  if (event.tool === 'Agent' || event.tool === 'Task') {
    const type = valueText(event.input['subagent_type'] ?? 'general-purpose');
    const about = cutAtWord(
      single(valueText(event.input['description'] ?? event.input['prompt'])),
      Math.max(8, lineRoom(options) - displayWidth(type) - 16),
    );
    const line = `${colors.magenta(threadPad(event, `> ${text('ev.dispatch', options)}`))} ${colors.bold(single(type))} ${colors.dim(about)}`;
    return event.subagent ? colors.dim(line) : line;
  }
  const prefix = threadPad(event, `* ${single(event.tool)} `);
  const argument = cutAtWord(single(event.text), Math.max(8, lineRoom(options) - displayWidth(prefix)));
  const line = `${prefix}${argument}`.trimEnd();
  return event.subagent ? colors.dim(line) : colors.blue(line);
}

function formatAnswer(state: string, answer: string, options: FormatOptions): string[] {
  const { colors } = options;
  switch (state) {
    case 'answered':
      return wrap(answer, options, '  + ', '    ').map(colors.green);
    case 'timeout':
      return [colors.yellow(`  ! ${text('ask.timeout', options)}`)];
    case 'over_budget':
      return [colors.yellow(`  ! ${text('ask.over', options)}`)];
    case 'declined':
      return [colors.dim(`  . ${text('ask.skipped', options)}`)];
    default:
      return [];
  }
}

function formatHandoff(event: HandoffEvent, options: FormatOptions): string[] {
  const { colors } = options;
  if (event.phase !== 'done') return wrap(event.text, options, '# ', '  ').map(colors.yellow);
  const head = text('ho.head', options, {
    ctx: (event.context / 1000).toFixed(1),
    win: Math.round(event.window / 1000),
  });
  const lines = ['', ...wrap(head, options, '# ', '  ').map((line) => colors.bold(colors.yellow(line)))];
  if (event.degraded === true) lines.push(colors.red(`  ${text('ho.degraded', options)}`));
  const sections = event.sections;
  if (sections !== undefined) {
    const items: Array<[string, string]> = [
      [text('ho.doing', options), sections.doing],
      [text('ho.decided', options), sections.decided],
      [text('ho.deadends', options), sections.deadends],
      [text('ho.next', options), sections.next],
    ];
    const labelWidth = Math.max(...items.map(([label]) => displayWidth(label)));
    for (const [label, body] of items) {
      if (body.trim() === '') continue;
      const padded = label + ' '.repeat(labelWidth - displayWidth(label));
      lines.push(...wrap(single(body), options, `  - ${padded}  `, ' '.repeat(labelWidth + 6)));
    }
  }
  if (event.path !== undefined && event.path !== '') {
    const written = text('ho.path', options, { path: tildePath(event.path, options.home) });
    lines.push(...wrap(written, options, '<- ', '   ').map(colors.dim));
  }
  const restart = text('ho.restart', options, { ctx: formatContext(event.context) });
  lines.push(...wrap(restart, options, '<- ', '   ').map(colors.dim));
  return lines;
}

/** `body` wrapped at word boundaries; a word wider than a line (a path, an address) is kept whole, never cut. */
function wrap(body: string, options: FormatOptions, first: string, next: string): string[] {
  const prefix: WrapPrefix = { first, next, splitLongWords: false };
  return wrapText(plainLines(body).join('\n'), lineRoom(options), prefix);
}

/** A model's text: its Markdown drawn on a terminal, the source as written otherwise (a pipe, a log file). */
function modelText(body: string, options: FormatOptions, indent: string): string[] {
  if (options.markdown !== true) return wrap(body, options, indent, indent);
  return markdownLines(body, { width: options.width, first: indent, next: indent, colors: options.colors });
}

/**
 * `line` cut after its last whole word that fits `room` columns, with ` ...` to say so. A first word wider
 * than the room (a path) is kept whole: a path cut short cannot be copied.
 */
export function cutAtWord(line: string, room: number): string {
  if (displayWidth(line) <= room) return line;
  const words = line.split(' ');
  let kept = words[0] ?? '';
  for (const word of words.slice(1)) {
    if (displayWidth(`${kept} ${word}`) + 4 > room) break;
    kept += ` ${word}`;
  }
  return kept === line ? line : `${kept} ...`;
}

function threadPad(thread: Thread, prefix: string): string {
  return thread.subagent ? `${GUTTER}${prefix}` : `  ${prefix}`;
}

function single(value: string): string {
  return sanitizeLine(value.replace(/\s*[\r\n]+\s*/g, ' '));
}

function text(
  key: Parameters<typeof uiText>[0],
  options: FormatOptions,
  vars: Record<string, string | number> = {},
): string {
  return uiText(key, vars, options.lang ?? 'en');
}

/** `path` with the home directory shown as `~`. */
export function tildePath(path: string, home: string | undefined): string {
  if (home === undefined || home === '' || home === '/') return path;
  if (path === home) return '~';
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
