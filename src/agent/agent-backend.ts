/**
 * The seam between flower's runtime and whatever runs an agent turn. The real implementation drives the
 * Claude Agent SDK ({@link ClaudeSdkBackend}); unit tests of pure runtime logic use the in-process
 * `ScriptedBackend` from `flower-agent/testing`.
 *
 * @module
 */
import type { Options, SDKMessage } from './claude-sdk.js';

/** One SDK message as flower's runtime consumes it. */
export type AgentMessage = SDKMessage;

/** What the runtime asks a backend to run: one prompt with fully built SDK options. */
export interface AgentRequest {
  prompt: string;
  options: Options;
}

/**
 * A running query. Iterate it for messages; `interrupt()` asks the agent to stop at the next boundary and
 * `close()` ends the underlying process at once.
 */
export interface AgentQuery extends AsyncIterable<AgentMessage> {
  interrupt(): Promise<void>;
  close(): void;
}

/** Runs agent queries. Abort `signal` to end a query immediately (the session stays resumable). */
export interface AgentBackend {
  query(request: AgentRequest, signal: AbortSignal): AgentQuery;
}
