/**
 * {@link AgentBackend} over the real Claude Agent SDK and its bundled Claude Code binary.
 *
 * @module
 */
import type { AgentBackend, AgentMessage, AgentQuery, AgentRequest } from './agent-backend.js';
import { query } from './claude-sdk.js';

/** Runs each request as one SDK `query()`, bridging flower's `AbortSignal` to the SDK's controller. */
export class ClaudeSdkBackend implements AgentBackend {
  readonly #executable: string | undefined;

  /** @param options.executable Path of a Claude Code executable to use instead of the bundled one. */
  constructor(options: { executable?: string } = {}) {
    this.#executable = options.executable;
  }

  query(request: AgentRequest, signal: AbortSignal): AgentQuery {
    const controller = request.options.abortController ?? new AbortController();
    // The listener is removed when the query ends, so a long-lived signal does not collect one per attempt.
    const onAbort = (): void => controller.abort(signal.reason);
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
    const options = { ...request.options, abortController: controller };
    if (this.#executable !== undefined) options.pathToClaudeCodeExecutable = this.#executable;
    const running = query({ prompt: request.prompt, options });
    const release = (): void => signal.removeEventListener('abort', onAbort);
    return {
      async *[Symbol.asyncIterator](): AsyncIterator<AgentMessage> {
        try {
          yield* running;
        } finally {
          release();
        }
      },
      interrupt: async () => {
        await running.interrupt();
      },
      close: () => {
        release();
        running.close();
      },
    };
  }
}
