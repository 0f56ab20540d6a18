/**
 * `FinalUsage`: the final usage of each response a query streamed, from its partial-message events. An
 * assistant message reaches flower once per content block with the usage of the response's start; the
 * output count comes only with `message_delta`, at the response's end. A response whose end never came
 * (cut mid-stream) has no final usage: it was not a whole answer and is not billed (docs/decisions.md D338).
 *
 * @module
 */
import type { SessionStoreEntry } from '../agent/claude-sdk.js';

/** The fields of a partial-message event this reads. */
interface StreamFields {
  type?: unknown;
  parent_tool_use_id?: unknown;
  event?: { type?: unknown; message?: { id?: unknown }; usage?: unknown };
}

/** Final usage by message id, fed every `stream_event` of one query. */
export class FinalUsage {
  /** The response each thread (main or a subagent's dispatch) is streaming now, by message id. */
  readonly #streaming = new Map<string | null, string>();
  readonly #final = new Map<string, Record<string, unknown>>();

  /** Notes a `stream_event` message; anything else is ignored. */
  feed(message: unknown): void {
    const fields = message as StreamFields;
    if (fields.type !== 'stream_event' || typeof fields.event !== 'object' || fields.event === null) return;
    const thread = typeof fields.parent_tool_use_id === 'string' ? fields.parent_tool_use_id : null;
    const event = fields.event;
    if (event.type === 'message_start') {
      const id = event.message?.id;
      if (typeof id === 'string' && id !== '') this.#streaming.set(thread, id);
      else this.#streaming.delete(thread);
      return;
    }
    if (event.type !== 'message_delta') return;
    const id = this.#streaming.get(thread);
    const usage = event.usage;
    if (id === undefined || typeof usage !== 'object' || usage === null) return;
    this.#final.set(id, usage as Record<string, unknown>);
  }

  /**
   * `entry` (an assistant message as streamed, which has a stored entry's shape) with its response's final
   * usage laid over the usage it carries; null when the response's end was not seen.
   */
  completed(entry: SessionStoreEntry): SessionStoreEntry | null {
    const message = entry['message'] as { id?: unknown; usage?: unknown } | undefined;
    const id = message?.id;
    if (typeof id !== 'string') return null;
    const final = this.#final.get(id);
    if (final === undefined) return null;
    const usage = typeof message?.usage === 'object' && message.usage !== null ? message.usage : {};
    return { ...entry, message: { ...message, usage: { ...usage, ...final } } };
  }
}
