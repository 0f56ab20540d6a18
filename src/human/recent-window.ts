/**
 * The last events of a run as short text lines (docs/human-channel.md): what the side-question oracle is
 * shown of the running run. Thinking and task briefs (`prompt`) are left out — they are long and say little
 * about where the run stands — and so are events without text. Each line is cut to 200 characters so sixty of
 * them stay a small prompt.
 *
 * @module
 */
import type { EventSink, FlowerEvent } from '../events/flower-event.js';

/** Longest text kept per line, in characters. */
const MAX_TEXT = 200;

const SKIPPED = new Set<FlowerEvent['kind']>(['thinking', 'prompt']);

/** One event as a window line: `[<kind>[/<tool>]·<main|subagent>] <text>`, or null when it is left out. */
export function windowLine(event: FlowerEvent): string | null {
  if (SKIPPED.has(event.kind)) return null;
  const text = event.text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  if (text === '') return null;
  const tool = 'tool' in event && typeof event.tool === 'string' && event.tool !== '' ? `/${event.tool}` : '';
  const who = 'subagent' in event && event.subagent ? 'subagent' : 'main';
  const characters = Array.from(text);
  const cut = characters.length > MAX_TEXT ? characters.slice(0, MAX_TEXT).join('') : text;
  return `[${event.kind}${tool}·${who}] ${cut}`;
}

/** Keeps the last `size` event lines of a run; attach {@link RecentWindow.sink} to the run's events. */
export class RecentWindow {
  readonly size: number;
  /** An event sink that records events; never throws. */
  readonly sink: EventSink;
  #lines: string[] = [];

  constructor(size = 60) {
    this.size = Math.max(0, Math.floor(size));
    this.sink = (event: FlowerEvent): void => {
      const line = windowLine(event);
      if (line === null || this.size === 0) return;
      this.#lines.push(line);
      if (this.#lines.length > this.size) this.#lines.splice(0, this.#lines.length - this.size);
    };
  }

  /** The recorded lines, oldest first (a copy). */
  lines(): string[] {
    return [...this.#lines];
  }
}
