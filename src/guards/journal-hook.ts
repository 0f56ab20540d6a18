/**
 * The tool journal's place in the permission gate: a PreToolUse hook on every tool that records the call
 * before the gate answers. Claude Code waits for every PreToolUse hook before it runs a tool, so the record
 * exists before the tool can have any effect.
 *
 * @module
 */
import type { HookCallback, HookInput, HookJSONOutput } from '../agent/claude-sdk.js';
import type { HooksConfig } from './hooks.js';

/** One call as the journal keeps it. */
export interface RecordedCall {
  sessionId: string;
  toolUseId: string;
  /** The subagent that made the call, or null for the main thread. */
  agentId: string | null;
  toolName: string;
  input: Record<string, unknown>;
  /** Epoch milliseconds. */
  startedAt: number;
}

/**
 * Where the hook writes, returning (or resolving, for a journal on a database server) only once the call is
 * durable.
 */
export interface CallRecorder {
  record(call: RecordedCall): void | Promise<void>;
}

/**
 * Hooks that journal every tool call and leave the decision to the other hooks (the answer is empty). A
 * call without a session or tool-use id cannot be matched to a transcript later and is not journalled.
 * Fail-open: a journal that cannot be written (a full disk) costs that call its crash protection, not the
 * run.
 */
export function journalHooks(recorder: CallRecorder, now: () => number = Date.now): HooksConfig {
  const callback: HookCallback = async (
    input: HookInput,
    toolUseId: string | undefined,
  ): Promise<HookJSONOutput> => {
    try {
      const call = recordedCall(input, toolUseId, now);
      // Awaited: the tool may not run before its row is durable, wherever the journal lives.
      if (call !== null) await recorder.record(call);
    } catch {
      // Fail-open, as documented above.
    }
    return {};
  };
  return { PreToolUse: [{ hooks: [callback] }] };
}

function recordedCall(
  input: HookInput,
  toolUseId: string | undefined,
  now: () => number,
): RecordedCall | null {
  if (input.hook_event_name !== 'PreToolUse') return null;
  const id = input.tool_use_id || toolUseId || '';
  if (id === '' || typeof input.session_id !== 'string' || input.session_id === '') return null;
  const toolInput =
    typeof input.tool_input === 'object' && input.tool_input !== null && !Array.isArray(input.tool_input)
      ? (input.tool_input as Record<string, unknown>)
      : {};
  return {
    sessionId: input.session_id,
    toolUseId: id,
    agentId: input.agent_id ?? null,
    toolName: input.tool_name,
    input: toolInput,
    startedAt: now(),
  };
}
