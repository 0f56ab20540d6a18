/**
 * SDK-shaped messages for one query, for feeding {@link ScriptedBackend} in tests of workflows and runtimes.
 *
 * @module
 */
import type { AgentMessage } from '../agent/agent-backend.js';
import { sdkAssistantText, sdkErrorResult, sdkInit, sdkResult } from './sdk-messages.js';

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
  const session = { sessionId };
  const costUsd = options.costUsd ?? 0.01;
  return [
    sdkInit(session),
    sdkAssistantText(reply, { ...session, id: `m-${sessionId}-${reply}` }),
    options.fail === true
      ? sdkErrorResult(['Reached maximum number of turns (3)'], {
          ...session,
          subtype: 'error_max_turns',
          costUsd,
        })
      : sdkResult({ ...session, result: reply, costUsd }),
  ];
}
