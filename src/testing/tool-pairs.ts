/**
 * The real API's tool-pairing rule: every `tool_use` of an assistant message must be answered by a
 * `tool_result` in the next message, and every `tool_result` must answer a `tool_use` of the message before
 * it. The fake applies it on request (`enforceToolPairs`) so transcript surgery (trim, prune, heal) can be
 * tested against the same 400 the real API would send. The messages follow the real API's wording.
 *
 * @module
 */
import { messagesOf } from './request-matching.js';

function blocksOf(message: Record<string, unknown> | undefined, type: string): Record<string, unknown>[] {
  const content = message?.['content'];
  if (!Array.isArray(content)) return [];
  return content.filter(
    (block): block is Record<string, unknown> =>
      typeof block === 'object' && block !== null && (block as Record<string, unknown>)['type'] === type,
  );
}

/**
 * The first tool-pairing violation in a request body, as the real API's error message, or null.
 * `role: 'system'` entries the CLI puts between messages are skipped: they are not conversation turns.
 */
export function findToolPairViolation(body: unknown): string | null {
  const indexed = messagesOf(body)
    .map((message, index) => ({ message, index }))
    .filter(({ message }) => message['role'] !== 'system');
  for (let position = 0; position < indexed.length; position++) {
    const current = indexed[position];
    const previous = indexed[position - 1];
    const next = indexed[position + 1];
    if (current === undefined) continue;
    if (current.message['role'] === 'assistant') {
      const answered = new Set(blocksOf(next?.message, 'tool_result').map((block) => block['tool_use_id']));
      const missing = blocksOf(current.message, 'tool_use')
        .map((block) => block['id'])
        .filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return (
          `messages.${current.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
          `${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
        );
      }
    }
    if (current.message['role'] === 'user') {
      const asked = new Set(
        previous?.message['role'] === 'assistant'
          ? blocksOf(previous.message, 'tool_use').map((block) => block['id'])
          : [],
      );
      const orphans = blocksOf(current.message, 'tool_result')
        .map((block) => block['tool_use_id'])
        .filter((id) => !asked.has(id));
      if (orphans.length > 0) {
        return (
          `messages.${current.index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ` +
          `${orphans.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`
        );
      }
    }
  }
  return null;
}
