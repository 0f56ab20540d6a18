/**
 * The hook that notices a worker cut off by the network (docs/decisions.md D344, `worker-fault.ts`): after a
 * dispatch on the main thread fails or returns, it reads the answer; when that is Claude Code's API-error
 * text for a transient fault, it tells flower, which ends the child, and never answers. Claude Code waits
 * for the hook before its next request, so the coordinator is never sent the error. (An answer of
 * `continue: false` does not do it: after a failed dispatch Claude Code still sends the next request, as
 * measured with the `refuse` fault of `flower chaos`.)
 *
 * @module
 */
import type { HookCallback, HookInput } from '../agent/claude-sdk.js';
import type { HooksConfig } from '../guards/hooks.js';
import { answerText, workerFaultText } from './worker-fault.js';

/** The tools that dispatch a worker (`Task` is the older name of `Agent`). */
const DISPATCH_TOOLS = new Set(['Agent', 'Task']);

/**
 * Hooks on the dispatch tools that call `onFault(toolUseId, error)` for a dispatch whose worker ended on a
 * transient API error and hold their answer until `onFault`'s promise settles: flower ends the child
 * meanwhile, so no further request is sent. Other dispatches are answered at once with no opinion.
 */
export function workerFaultHooks(onFault: (toolUseId: string, error: string) => Promise<void>): HooksConfig {
  const callback: HookCallback = async (input: HookInput, toolUseId: string | undefined) => {
    const fault = faultOf(input);
    if (fault === null) return {};
    await onFault(fault.toolUseId || toolUseId || '', fault.error);
    return { continue: false };
  };
  const matcher = { matcher: [...DISPATCH_TOOLS].join('|'), hooks: [callback] };
  return { PostToolUse: [matcher], PostToolUseFailure: [matcher] };
}

/** The dispatch `input` reports on and the transient API error that ended its worker, else null. */
export function faultOf(input: HookInput): { toolUseId: string; error: string } | null {
  let answer: string;
  if (input.hook_event_name === 'PostToolUseFailure') answer = input.error;
  else if (input.hook_event_name === 'PostToolUse') answer = answerText(input.tool_response);
  else return null;
  // Only the main thread dispatches; a subagent's own failed call is its own business.
  if (!DISPATCH_TOOLS.has(input.tool_name) || (input.agent_id ?? '') !== '') return null;
  const error = workerFaultText(answer);
  return error === null ? null : { toolUseId: input.tool_use_id, error };
}
