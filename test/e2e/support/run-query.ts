/**
 * Shared helpers for end-to-end tests: run one query through the real {@link ClaudeSdkBackend} (real SDK,
 * real Claude Code binary) and collect what it yields, tolerating the throw that follows an error result
 * (decisions.md D8); and the base options every e2e query uses.
 *
 * @module
 */
import type { AgentBackend, AgentMessage } from '../../../src/agent/agent-backend.js';
import { ClaudeSdkBackend } from '../../../src/agent/claude-sdk-backend.js';
import type { HookCallbackMatcher, Options, SDKResultMessage } from '../../../src/agent/claude-sdk.js';
import type { ScratchEnvironment } from '../../../src/testing/index.js';

/** What one query produced. */
export interface QueryOutcome {
  messages: AgentMessage[];
  /** Every `result` message (a query may yield several). */
  results: SDKResultMessage[];
  /** The last `result` message, if any. */
  result: SDKResultMessage | undefined;
  /** What the iterator threw, if anything (it throws after an error result). */
  error: Error | null;
  durationMs: number;
}

/**
 * A PreToolUse hook that allows every tool: the permission gate flower uses (decisions.md D7); works as root.
 */
export const allowEveryTool: HookCallbackMatcher = {
  hooks: [
    () =>
      Promise.resolve({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }),
  ],
};

/** Base options for an e2e query in `scratch`: its env and workspace, no setting sources, every tool allowed. */
export function e2eOptions(scratch: ScratchEnvironment, extra: Partial<Options> = {}): Options {
  return {
    env: scratch.env,
    cwd: scratch.workspace,
    settingSources: [],
    hooks: { PreToolUse: [allowEveryTool] },
    ...extra,
  };
}

/** Runs `prompt` to the end and collects the outcome; never throws. */
export async function runQuery(
  prompt: string,
  options: Options,
  runOptions: { backend?: AgentBackend; signal?: AbortSignal } = {},
): Promise<QueryOutcome> {
  const backend = runOptions.backend ?? new ClaudeSdkBackend();
  const started = Date.now();
  const messages: AgentMessage[] = [];
  let error: Error | null = null;
  try {
    for await (const message of backend.query(
      { prompt, options },
      runOptions.signal ?? new AbortController().signal,
    )) {
      messages.push(message);
    }
  } catch (thrown) {
    error = thrown instanceof Error ? thrown : new Error(String(thrown));
  }
  const results = messages.filter((message): message is SDKResultMessage => message.type === 'result');
  return { messages, results, result: results.at(-1), error, durationMs: Date.now() - started };
}
