/**
 * Guards are pure decisions about one tool call, testable without the SDK; `toHooks()` adapts them to SDK
 * hook callbacks (decisions.md D7: the permission gate is a PreToolUse hook).
 *
 * @module
 */

/** One tool-lifecycle hook call, in flower's terms (the SDK's snake_case input, normalised). */
export interface ToolHookInput {
  event: 'PreToolUse' | 'PostToolUse';
  toolName: string;
  toolInput: Record<string, unknown>;
  /** PostToolUse only: the tool's structured output. */
  toolResponse?: unknown;
  toolUseId: string;
  /** Set only inside a subagent; null on the main thread. */
  agentId: string | null;
  agentType: string | null;
  cwd: string;
}

/**
 * What a guard decides: `pass` leaves the call to the next guard and the permission layer; `deny` blocks
 * it and tells the model why; `allow` approves it (optionally with rewritten input); `replace` swaps the
 * tool output the model sees (PostToolUse; the output must have the tool's own result shape); `stop` denies
 * the call and ends the agent's turn there, so no further request is sent (the hard budget).
 */
export type GuardDecision =
  | { action: 'pass' }
  | { action: 'deny'; reason: string }
  | { action: 'allow'; updatedInput?: Record<string, unknown> }
  | { action: 'replace'; output: unknown }
  | { action: 'stop'; reason: string };

/** A named decision for one hook event and tool matcher (a regular expression over tool names, `|` = or). */
export interface Guard {
  name: string;
  event: ToolHookInput['event'];
  /** Tool-name matcher as the SDK reads it, e.g. `Bash|Write`; empty = every tool. */
  matcher: string;
  /** When `decide` throws: true blocks the call (`onFailure: 'block'`), false lets it through. */
  failClosed: boolean;
  decide(input: ToolHookInput): GuardDecision | Promise<GuardDecision>;
}
