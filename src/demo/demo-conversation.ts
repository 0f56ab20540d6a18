/**
 * What the demo's scripted model reads of a request (see `demo-scenario.ts`): the system prompt, the first and
 * last user messages, and the tool results sent since it last spoke. Only the few request features that stay
 * stable across Claude Code versions are used (docs/testing.md).
 *
 * @module
 */
import { isRecord } from '../internal/is-record.js';
import { messagesOf } from '../testing/request-matching.js';

/** One tool result as the model sees it. */
export interface SeenResult {
  id: string;
  text: string;
  isError: boolean;
}

/** What the script reads of a conversation. */
export interface Conversation {
  /** Every text of the first user message, joined (system reminders included). */
  firstUser: string;
  /** Every text of the last user message that is not a system reminder, joined. */
  lastUser: string;
  /** The tool results sent since the model last spoke. */
  results: SeenResult[];
  /** Every tool result of the conversation, oldest first: what a resumed model reads back over. */
  allResults: SeenResult[];
}

/** The system prompt's text, whether sent as a string or as blocks. */
export function systemText(body: unknown): string {
  if (!isRecord(body)) return '';
  const system = body['system'];
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? system.map(textOf).join('\n') : '';
}

/** The text of a block or of a content value (string or blocks), nested tool-result content included. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (!isRecord(content)) return '';
  if (typeof content['text'] === 'string') return content['text'];
  return content['content'] === undefined ? '' : textOf(content['content']);
}

/** Reads the parts of a request body the script decides by. */
export function readConversation(body: unknown): Conversation {
  const messages = messagesOf(body);
  const users = messages.filter((entry) => entry['role'] === 'user');
  const last = users.at(-1)?.['content'];
  // Every user message after the last assistant message: parallel tool calls may come back one per message.
  const answering = messages.slice(lastIndexOf(messages, 'assistant') + 1);
  const blocksOf = (entries: readonly Record<string, unknown>[]): Record<string, unknown>[] =>
    entries.flatMap((entry) => (Array.isArray(entry['content']) ? entry['content'].filter(isRecord) : []));
  const lastTexts =
    typeof last === 'string'
      ? [last]
      : (Array.isArray(last) ? last.filter(isRecord) : [])
          .filter((block) => block['type'] === 'text' && typeof block['text'] === 'string')
          .map((block) => block['text'] as string)
          .filter((value) => !value.trimStart().startsWith('<system-reminder>'));
  return {
    firstUser: textOf(users[0]?.['content']),
    lastUser: lastTexts.join('\n'),
    results: toolResults(blocksOf(answering)),
    allResults: toolResults(blocksOf(users)),
  };
}

function toolResults(blocks: readonly Record<string, unknown>[]): SeenResult[] {
  return blocks
    .filter((block) => block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string')
    .map((block) => ({
      id: block['tool_use_id'] as string,
      text: textOf(block['content']),
      isError: block['is_error'] === true,
    }));
}

function lastIndexOf(messages: readonly Record<string, unknown>[], role: string): number {
  for (let index = messages.length - 1; index >= 0; index--)
    if (messages[index]?.['role'] === role) return index;
  return -1;
}
