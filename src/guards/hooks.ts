/**
 * The adapter from flower's pure {@link Guard}s to the SDK's hook configuration, and the merge of several
 * hook groups into one.
 *
 * @module
 */
import type {
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
} from '../agent/claude-sdk.js';
import type { HooksConfig } from '../agent/agent-spec.js';
import type { Guard, GuardDecision, ToolHookInput } from './guard.js';
import { errorText } from '../internal/error-text.js';

export type { HooksConfig };

/**
 * Turns guards into SDK hooks, one matcher per guard in the order given, grouped by event; `null` guards
 * (a factory with nothing to enforce) are skipped. A fail-closed guard gets `onFailure: 'block'`, and a
 * throw inside it becomes a deny, so a bug in a guard never silently opens the gate.
 */
export function toHooks(...guards: Array<Guard | null>): HooksConfig {
  const hooks: HooksConfig = {};
  for (const guard of guards) {
    if (guard === null) continue;
    const matcher: HookCallbackMatcher = { hooks: [callbackFor(guard)] };
    if (guard.matcher !== '') matcher.matcher = guard.matcher;
    if (guard.failClosed) matcher.onFailure = 'block';
    (hooks[guard.event] ??= []).push(matcher);
  }
  return hooks;
}

/** Concatenates hook groups per event, in argument order; null and undefined groups are skipped. */
export function mergeHooks(...groups: Array<HooksConfig | null | undefined>): HooksConfig {
  const merged: HooksConfig = {};
  for (const group of groups) {
    if (group === null || group === undefined) continue;
    for (const [event, matchers] of Object.entries(group) as Array<
      [HookEvent, HookCallbackMatcher[] | undefined]
    >) {
      if (matchers === undefined || matchers.length === 0) continue;
      (merged[event] ??= []).push(...matchers);
    }
  }
  return merged;
}

function callbackFor(guard: Guard): HookCallback {
  return async (input: HookInput, toolUseId: string | undefined): Promise<HookJSONOutput> => {
    const toolInput = toToolHookInput(input, toolUseId);
    if (toolInput === null || toolInput.event !== guard.event) return {};
    let decision: GuardDecision;
    try {
      decision = await guard.decide(toolInput);
    } catch (error) {
      if (!guard.failClosed) return {};
      decision = { action: 'deny', reason: `flower guard '${guard.name}' failed: ${errorText(error)}` };
    }
    return toOutput(guard.event, decision);
  };
}

/** Reads the SDK's snake_case hook input; null for events that are not about one tool call. */
export function toToolHookInput(input: HookInput, toolUseId?: string): ToolHookInput | null {
  if (input.hook_event_name !== 'PreToolUse' && input.hook_event_name !== 'PostToolUse') return null;
  const toolInput =
    typeof input.tool_input === 'object' && input.tool_input !== null
      ? (input.tool_input as Record<string, unknown>)
      : {};
  const result: ToolHookInput = {
    event: input.hook_event_name,
    toolName: input.tool_name,
    toolInput,
    toolUseId: input.tool_use_id || toolUseId || '',
    agentId: input.agent_id ?? null,
    agentType: input.agent_type ?? null,
    cwd: input.cwd,
  };
  if (input.hook_event_name === 'PostToolUse') result.toolResponse = input.tool_response;
  return result;
}

function toOutput(event: ToolHookInput['event'], decision: GuardDecision): HookJSONOutput {
  switch (decision.action) {
    case 'pass':
      return {};
    case 'deny':
      if (event === 'PreToolUse') {
        // `ask`, not `deny`: Claude Code shows a hook's deny to the model as "PreToolUse:<tool> hook error:
        // <reason>", which reads like a broken hook. An ask that nobody can answer (flower passes no
        // canUseTool) is refused as a permission denial whose text is the reason alone. An ask still beats
        // another hook's allow and `allowedTools`, in every permission mode, bypassPermissions included.
        return {
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'ask',
            permissionDecisionReason: decision.reason,
          },
        };
      }
      return { decision: 'block', reason: decision.reason };
    case 'allow':
      if (event !== 'PreToolUse') return {};
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          ...(decision.updatedInput === undefined ? {} : { updatedInput: decision.updatedInput }),
        },
      };
    case 'replace':
      if (event !== 'PostToolUse') return {};
      return { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: decision.output } };
    case 'stop':
      // `continue: false` ends the turn after the hooks: the child sends no further request.
      if (event !== 'PreToolUse') return { continue: false, stopReason: decision.reason };
      return {
        continue: false,
        stopReason: decision.reason,
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: decision.reason,
        },
      };
  }
}
