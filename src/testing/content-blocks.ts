/**
 * The assistant content blocks a scripted fake answer is made of, and the helpers that build them. They use
 * the Messages API's wire names (snake_case), because they are sent to the Claude Code binary as they are.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';

/** A text block of an assistant answer. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** A tool call of an assistant answer; `input` must be JSON-serialisable. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: object;
}

/** A thinking block of an assistant answer. The fake never checks signatures, so any string works. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** One block of a scripted assistant answer. */
export type ContentBlock = TextBlock | ToolUseBlock | ThinkingBlock;

/** A text block. */
export function text(value: string): TextBlock {
  return { type: 'text', text: value };
}

/** A thinking block with a placeholder signature. */
export function thinking(value: string): ThinkingBlock {
  return { type: 'thinking', thinking: value, signature: 'fake-signature' };
}

/**
 * A tool call. Without `id` a random `toolu_…` id is made once, here: a retried turn re-sends the same
 * response object, so the CLI sees the same id on every attempt.
 */
export function toolUse(name: string, input: object, id?: string): ToolUseBlock {
  return { type: 'tool_use', id: id ?? `toolu_fake_${randomBytes(10).toString('hex')}`, name, input };
}
