/**
 * `UnansweredCalls`: the main thread's tool calls an attempt has seen asked for but not yet answered, so a
 * break can journal them (docs/decisions.md D335).
 *
 * Why: when the runtime breaks out of a query (a due handoff, an interrupt) it closes the SDK child. A call
 * the model asked for just before is then refused by Claude Code itself (the hook the gate would answer is
 * never asked, so the gate's journal hook never records it), yet Claude Code still shows the call and its
 * refusal to the model in a next request, and mirrors neither to the store once flower stopped reading. A
 * SIGKILL soon after leaves a call the model saw in no transcript and in no journal; journalled here, every
 * load puts it back.
 *
 * @module
 */
import type { CallRecorder } from '../guards/journal-hook.js';

interface PendingCall {
  toolName: string;
  input: Record<string, unknown>;
}

/** Tracks the main thread's `tool_use` blocks without a `tool_result` yet, from the SDK's messages. */
export class UnansweredCalls {
  readonly #pending = new Map<string, PendingCall>();
  #sessionId: string | null = null;

  /** Notes the calls an assistant message asks for and the ones a user message answers. */
  observe(message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const record = message as Record<string, unknown>;
    // Subagent calls are journalled by the gate under their agent id, which these messages do not carry.
    if (record['parent_tool_use_id'] !== null && record['parent_tool_use_id'] !== undefined) return;
    if (typeof record['session_id'] === 'string' && record['session_id'] !== '') {
      this.#sessionId = record['session_id'];
    }
    const content = (record['message'] as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) return;
    for (const block of content as unknown[]) {
      if (typeof block !== 'object' || block === null) continue;
      const value = block as Record<string, unknown>;
      if (record['type'] === 'assistant' && value['type'] === 'tool_use' && typeof value['id'] === 'string') {
        const input = value['input'];
        this.#pending.set(value['id'], {
          toolName: typeof value['name'] === 'string' ? value['name'] : '',
          input:
            typeof input === 'object' && input !== null && !Array.isArray(input)
              ? (input as Record<string, unknown>)
              : {},
        });
      } else if (
        record['type'] === 'user' &&
        value['type'] === 'tool_result' &&
        typeof value['tool_use_id'] === 'string'
      ) {
        this.#pending.delete(value['tool_use_id']);
      }
    }
  }

  /** The ids of the calls still unanswered, oldest first. */
  ids(): string[] {
    return [...this.#pending.keys()];
  }

  /**
   * Journals every unanswered call (a call the gate already journalled keeps its first row). Fail-open, like
   * the gate's journal hook once was: these calls were never let through, so a row that cannot be written
   * costs the call its trace only. `onFailure` hears each failed write before the query closes — a full run
   * directory stops the run there, before Claude Code can send the refusal in a request nothing can record
   * (docs/decisions.md D350).
   */
  async journal(
    recorder: CallRecorder,
    now: () => number = Date.now,
    onFailure: ((error: unknown) => void) | null = null,
  ): Promise<void> {
    const sessionId = this.#sessionId;
    if (sessionId === null) return;
    for (const [toolUseId, call] of this.#pending) {
      try {
        // A journal on a server answers with a promise: the row is on the server before the query closes.
        await recorder.record({ sessionId, toolUseId, agentId: null, ...call, startedAt: now() });
      } catch (error) {
        try {
          onFailure?.(error);
        } catch {
          // The listener is bookkeeping; the break goes on either way.
        }
      }
    }
  }
}
