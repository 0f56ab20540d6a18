/**
 * SDK-shaped messages for one query, for feeding {@link ScriptedBackend} in tests of workflows and runtimes.
 *
 * @module
 */
import type { AgentMessage } from '../agent/agent-backend.js';

/** Options of {@link scriptedTurn}. */
export interface ScriptedTurnOptions {
  /** End with an error result (`error_max_turns`) instead of a success. */
  fail?: boolean;
  /** The result's `total_cost_usd`; 0.01 by default. */
  costUsd?: number;
}

/**
 * One query of a scripted model as the SDK would yield it: `system/init` with the session id, one
 * main-thread assistant text, and a `result`.
 */
export function scriptedTurn(
  sessionId: string,
  reply: string,
  options: ScriptedTurnOptions = {},
): AgentMessage[] {
  const fail = options.fail ?? false;
  return [
    { type: 'system', subtype: 'init', session_id: sessionId, uuid: `${sessionId}-i` },
    {
      type: 'assistant',
      session_id: sessionId,
      uuid: `${sessionId}-a`,
      parent_tool_use_id: null,
      message: { id: `m-${sessionId}-${reply}`, role: 'assistant', content: [{ type: 'text', text: reply }] },
    },
    {
      type: 'result',
      subtype: fail ? 'error_max_turns' : 'success',
      is_error: fail,
      errors: fail ? ['Reached maximum number of turns (3)'] : [],
      num_turns: 1,
      total_cost_usd: options.costUsd ?? 0.01,
      result: reply,
      session_id: sessionId,
      uuid: `${sessionId}-r`,
    },
  ] as unknown as AgentMessage[];
}
