// A scripted turn whose first assistant message reports a given main-thread context, followed by a tool round
// trip: the shape that makes a handoff due at the next message boundary in handoff tests.
import type { AgentMessage } from '../../src/agent/agent-backend.js';
import { scriptedTurn } from '../../src/testing/scripted-turn.js';

/**
 * `tokens` of context on the first assistant message (a Bash tool call), then its tool result; with `finish`
 * (default true) the turn then ends with a reply and a success result, as a turn below the threshold would.
 */
export function busyTurn(
  sessionId: string,
  tokens: number,
  options: { finish?: boolean } = {},
): AgentMessage[] {
  const opening = [
    { type: 'system', subtype: 'init', session_id: sessionId, uuid: `${sessionId}-i` },
    {
      type: 'assistant',
      session_id: sessionId,
      uuid: `${sessionId}-a1`,
      parent_tool_use_id: null,
      message: {
        id: `m-${sessionId}-1`,
        role: 'assistant',
        content: [{ type: 'tool_use', id: `t-${sessionId}`, name: 'Bash', input: { command: 'make' } }],
        usage: {
          input_tokens: tokens,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
          output_tokens: 10,
        },
      },
    },
    {
      type: 'user',
      session_id: sessionId,
      uuid: `${sessionId}-u1`,
      parent_tool_use_id: null,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `t-${sessionId}`, content: 'ok' }],
      },
    },
  ] as unknown as AgentMessage[];
  if (options.finish === false) return opening;
  return [...opening, ...scriptedTurn(sessionId, 'finished without a handoff').slice(1)];
}
