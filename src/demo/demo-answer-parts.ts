/**
 * What `flower demo`'s scripted answers are built from: a move with its blocks and usage, the tool calls the
 * roles make, and the ids those calls carry.
 *
 * @module
 */
import { toolUse, type ContentBlock } from '../testing/content-blocks.js';
import { message, type Usage } from '../testing/fake-response.js';
import type { DemoMove, DemoTurn } from './demo-move.js';

/** The answer of `move`: one message with `content`, reporting `usage`. */
export function turn(move: DemoMove, content: ContentBlock[], usage: Usage): DemoTurn {
  return { move, response: message(content, { usage }) };
}

/** Usage for a context of about `base` tokens that grows a little with each turn; mostly cache reads (cheap). */
export function context(base: number, turnNumber: number): Usage {
  const total = base + turnNumber * 700;
  return {
    input_tokens: 420,
    cache_read_input_tokens: total - 420,
    cache_creation_input_tokens: 0,
    output_tokens: 160,
  };
}

/** A look at the workspace: `ls`. */
export function glance(id: string): ContentBlock {
  return bash('ls', 'List the workspace', id);
}

/** A Bash call of `command`. */
export function bash(command: string, description: string, id: string): ContentBlock {
  return toolUse('Bash', { command, description }, id);
}

/** A dispatch of the `coder` worker with `prompt`. */
export function dispatch(prompt: string, description: string, id: string): ContentBlock {
  return toolUse('Agent', { description, prompt, subagent_type: 'coder' }, id);
}

/**
 * The id of the call `base` made at `turnNumber`. Each use gets its own id — a session that repeats a move
 * (another round) must not send an id it already used — and stays the same when a request is retried.
 */
export function callId(base: string, turnNumber: number): string {
  return `${base}__${turnNumber}`;
}
