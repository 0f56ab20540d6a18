/**
 * Builds the assistant `Message` a scripted answer stands for, and the SSE events that stream it
 * (as the Messages API streams it): `message_start` with the input-side usage, per block a start, deltas and
 * a stop, then `message_delta` with the stop reason and `output_tokens`, then `message_stop`.
 *
 * @module
 */
import type { ContentBlock } from './content-blocks.js';
import type { Usage } from './fake-response.js';
import type { ServerSentEvent } from './sse-encoder.js';

/** A complete assistant message as the non-streaming Messages API returns it. */
export interface AssistantMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: Usage;
}

/** About four characters per token, the usual rule of thumb for English text and JSON. */
const charactersPerToken = 4;

/**
 * Usage that looks real without being scripted: input grows with the request (so with every turn), output
 * with the answer, and both cache fields are present (zero) so readers that sum all three work.
 */
export function defaultUsage(requestCharacters: number, content: readonly ContentBlock[]): Usage {
  return {
    input_tokens: Math.max(1, Math.ceil(requestCharacters / charactersPerToken)),
    output_tokens: Math.max(1, Math.ceil(JSON.stringify(content).length / charactersPerToken)),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** The message for `content`; the stop reason defaults to `tool_use` when a block is a tool call. */
export function assistantMessage(init: {
  id: string;
  model: string;
  content: ContentBlock[];
  usage: Usage;
  stopReason?: string | undefined;
}): AssistantMessage {
  const calledTool = init.content.some((block) => block.type === 'tool_use');
  return {
    id: init.id,
    type: 'message',
    role: 'assistant',
    model: init.model,
    content: init.content,
    stop_reason: init.stopReason ?? (calledTool ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: init.usage,
  };
}

/** Splits a string in two halves, so readers have to join deltas (an empty string gives no part). */
function halves(value: string): string[] {
  const middle = Math.ceil(value.length / 2);
  return [value.slice(0, middle), value.slice(middle)].filter((part) => part !== '');
}

function blockEvents(block: ContentBlock, index: number): ServerSentEvent[] {
  const delta = (value: object): ServerSentEvent => ({
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index, delta: value },
  });
  const start = (contentBlock: object): ServerSentEvent => ({
    event: 'content_block_start',
    data: { type: 'content_block_start', index, content_block: contentBlock },
  });
  const stop: ServerSentEvent = { event: 'content_block_stop', data: { type: 'content_block_stop', index } };
  switch (block.type) {
    case 'text':
      return [
        start({ type: 'text', text: '' }),
        ...halves(block.text).map((part) => delta({ type: 'text_delta', text: part })),
        stop,
      ];
    case 'tool_use':
      return [
        start({ type: 'tool_use', id: block.id, name: block.name, input: {} }),
        ...halves(JSON.stringify(block.input)).map((part) =>
          delta({ type: 'input_json_delta', partial_json: part }),
        ),
        stop,
      ];
    case 'thinking':
      return [
        start({ type: 'thinking', thinking: '', signature: '' }),
        ...halves(block.thinking).map((part) => delta({ type: 'thinking_delta', thinking: part })),
        delta({ type: 'signature_delta', signature: block.signature }),
        stop,
      ];
  }
}

/** The SSE events that stream `message`, each with its `event:` name. */
export function messageEvents(message: AssistantMessage): ServerSentEvent[] {
  const { usage } = message;
  return [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          // The real API reports output_tokens 1 here and the final count in message_delta.
          usage: { ...usage, output_tokens: 1 },
        },
      },
    },
    ...message.content.flatMap(blockEvents),
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
}
