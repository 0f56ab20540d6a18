/**
 * `StreamMeter`: turns the SDK's partial-message deltas (`stream_event`) into {@link StreamEvent}s, so a live
 * display can show that a reply is arriving and how long it is so far. The API reports a response's output
 * tokens only at its end (`message_delta`), so until then the count is estimated from the streamed
 * characters; deltas are many, so progress is sent at most once per {@link STREAM_PROGRESS_INTERVAL_MS}
 * (besides a response's start, its first count and its end).
 *
 * @module
 */
import type { StreamEvent } from './flower-event.js';

/** Progress of one response is sent at most this often (the start and the end always are). */
export const STREAM_PROGRESS_INTERVAL_MS = 500;

/** Characters per token of the estimate: the usual figure for English text and code. */
const CHARACTERS_PER_TOKEN = 4;

/** Counts one query's streamed responses. */
export class StreamMeter {
  #characters = 0;
  #lastSent = Number.NEGATIVE_INFINITY;
  /** The count last sent for the response in progress. */
  #sentTokens = 0;
  readonly #now: () => number;

  readonly #step: string | null;

  /**
   * @param now clock in milliseconds, for tests.
   * @param step the step whose query is streamed, carried by the events; null outside a step.
   */
  constructor(now: () => number = Date.now, step: string | null = null) {
    this.#now = now;
    this.#step = step;
  }

  /** The progress event `message` calls for, or null (not a stream event, or too soon after the last). */
  feed(message: unknown): StreamEvent | null {
    const fields = message as {
      type?: unknown;
      event?: { type?: unknown; delta?: Record<string, unknown>; usage?: { output_tokens?: unknown } };
      parent_tool_use_id?: unknown;
    };
    if (fields.type !== 'stream_event' || typeof fields.event !== 'object' || fields.event === null)
      return null;
    const parent = typeof fields.parent_tool_use_id === 'string' ? fields.parent_tool_use_id : null;
    const event = fields.event;
    const now = this.#now();
    const progress = (tokens: number, done: boolean): StreamEvent => {
      this.#lastSent = now;
      this.#sentTokens = tokens;
      return {
        kind: 'stream',
        text: '',
        at: now / 1000,
        step: this.#step,
        subagent: parent !== null,
        parentToolUseId: parent,
        tokens,
        done,
      };
    };
    switch (event.type) {
      case 'message_start':
        this.#characters = 0;
        return progress(0, false);
      case 'content_block_delta': {
        this.#characters += deltaCharacters(event.delta);
        // The first count of a response always goes out: a reply that then pauses must not read as zero.
        const first = this.#sentTokens === 0 && this.#characters > 0;
        if (!first && now - this.#lastSent < STREAM_PROGRESS_INTERVAL_MS) return null;
        return progress(this.#estimate(), false);
      }
      case 'message_delta': {
        const counted = event.usage?.output_tokens;
        const tokens = typeof counted === 'number' && Number.isFinite(counted) ? counted : this.#estimate();
        return progress(tokens, true);
      }
      default:
        return null;
    }
  }

  #estimate(): number {
    return Math.ceil(this.#characters / CHARACTERS_PER_TOKEN);
  }
}

/** The characters one delta adds: text, thinking, or a chunk of a tool call's JSON input. */
function deltaCharacters(delta: Record<string, unknown> | undefined): number {
  if (delta === undefined) return 0;
  for (const key of ['text', 'thinking', 'partial_json']) {
    const value = delta[key];
    if (typeof value === 'string') return value.length;
  }
  return 0;
}
