/**
 * The structural rules of the real Messages API that a stored transcript can break: the tool-pairing rule
 * ({@link findToolPairViolation}), no message with empty content (the real API allows it only for a final
 * assistant message, which it continues), and no tool_use id used twice in one request. The fake applies
 * them on request (`enforceToolPairs`) so a transcript `flower doctor` calls broken is rejected with the
 * same 400 the real API sends, and its repaired copy is not (decisions.md D447: Claude Code repairs these
 * shapes itself before a resume, so tests post the request a broken transcript gives). The messages follow
 * the real API's wording.
 *
 * @module
 */
import { messagesOf } from './request-matching.js';
import { findToolPairViolation } from './tool-pairs.js';

/** The first structural violation in a request body, as the real API's error message, or null. */
export function findRequestViolation(body: unknown): string | null {
  const messages = messagesOf(body);
  const seen = new Set<unknown>();
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Record<string, unknown>;
    const content = message['content'];
    const empty = content === '' || (Array.isArray(content) && content.length === 0);
    const finalAssistant = index === messages.length - 1 && message['role'] === 'assistant';
    if (empty && !finalAssistant) {
      return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (message['role'] !== 'assistant' || !Array.isArray(content)) continue;
    for (let blockIndex = 0; blockIndex < content.length; blockIndex += 1) {
      const block = content[blockIndex] as Record<string, unknown> | null;
      if (block?.['type'] !== 'tool_use') continue;
      if (seen.has(block['id'])) {
        return `messages.${index}.content.${blockIndex}: \`tool_use\` ids must be unique`;
      }
      seen.add(block['id']);
    }
  }
  return findToolPairViolation(body);
}
