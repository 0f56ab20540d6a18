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
 * Fail-closed: a call whose row could not be written (a full disk, a server gone) is denied, since a call
 * that runs unjournalled is one a kill could leave on disk with no trace, for the resumed model to repeat
 * (docs/decisions.md D349). `onFailure` hears the error first, so a runtime that stops on it (a full run
 * directory) ends the step before the denial reaches the model.
 */
export function journalHooks(
  recorder: CallRecorder,
  now: () => number = Date.now,
  onFailure: ((error: unknown) => void) | null = null,
): HooksConfig {
  const callback: HookCallback = async (
    input: HookInput,
    toolUseId: string | undefined,
  ): Promise<HookJSONOutput> => {
    const call = recordedCall(input, toolUseId, now);
    if (call === null) return {};
    try {
      // Awaited: the tool may not run before its row is durable, wherever the journal lives.
      await recorder.record(call);
      return {};
    } catch (error) {
      try {
        onFailure?.(error);
      } catch {
        // The listener is bookkeeping; the denial below is what keeps the call from running.
      }
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: JOURNAL_FAILED_REASON,
        },
      };
    }
  };
  return { PreToolUse: [{ hooks: [callback] }] };
}

/** What the model reads for a call the journal could not record: not run, and why, in one sentence. */
export const JOURNAL_FAILED_REASON =
  'flower could not record this call in its tool journal, so it did not run it; try the call again.';

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
