/**
 * Reading what the model was shown: the tool results in the requests a {@link FakeAnthropicServer} received.
 *
 * @module
 */
import type { FakeAnthropicServer, FakeRequest } from '../../../src/testing/index.js';

/** One tool result as the model saw it. */
export interface SeenToolResult {
  text: string;
  isError: boolean;
  /** The request that carried it first. */
  request: FakeRequest;
}

/** The first tool result for `toolUseId` in any request the fake received, or undefined. */
export function seenToolResult(server: FakeAnthropicServer, toolUseId: string): SeenToolResult | undefined {
  for (const request of server.calls) {
    const messages = (request.body as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(messages)) continue;
    for (const message of messages as Array<{ role?: unknown; content?: unknown }>) {
      if (message.role !== 'user' || !Array.isArray(message.content)) continue;
      for (const block of message.content as Array<Record<string, unknown>>) {
        if (block['type'] !== 'tool_result' || block['tool_use_id'] !== toolUseId) continue;
        return { text: contentText(block['content']), isError: block['is_error'] === true, request };
      }
    }
  }
  return undefined;
}

/** The first user message of a request, flattened to text (system reminders included). */
export function firstUserText(request: FakeRequest): string {
  const messages = (request.body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return '';
  const first = (messages as Array<{ role?: unknown; content?: unknown }>).find((m) => m.role === 'user');
  return first === undefined ? '' : contentText(first.content);
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: unknown) => {
      const fields = block as { type?: unknown; text?: unknown; content?: unknown };
      if (typeof fields.text === 'string') return fields.text;
      if (fields.content !== undefined) return contentText(fields.content);
      return '';
    })
    .join('\n');
}
