// A scripted turn whose first assistant message reports a given main-thread context, followed by a tool round
// trip: the shape that makes a handoff due at the next message boundary in handoff tests.
import type { AgentMessage } from '../../src/agent/agent-backend.js';
import { scriptedTurn } from '../../src/testing/scripted-turn.js';
import { sdkInit, sdkToolResult, sdkToolUse } from '../../src/testing/sdk-messages.js';

/**
 * `tokens` of context on the first assistant message (a Bash tool call), then its tool result; with `finish`
 * (default true) the turn then ends with a reply and a success result, as a turn below the threshold would.
 */
export function busyTurn(
  sessionId: string,
  tokens: number,
  options: { finish?: boolean } = {},
): AgentMessage[] {
  const session = { sessionId };
  const call = `t-${sessionId}`;
  const opening: AgentMessage[] = [
    sdkInit(session),
    sdkToolUse('Bash', { command: 'make' }, call, {
      ...session,
      id: `m-${sessionId}-1`,
      inputTokens: tokens,
      outputTokens: 10,
    }),
    sdkToolResult(call, 'ok', session),
  ];
  if (options.finish === false) return opening;
  return [...opening, ...scriptedTurn(sessionId, 'finished without a handoff').slice(1)];
}
