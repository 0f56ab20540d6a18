/**
 * A scripted backend for CLI tests that must act while a query is in flight: a query's messages can wait for
 * a gate the test opens, or hang until the query is aborted (Ctrl-C, a signal rescue). The SDK module is not
 * mocked; like the SDK, an aborted query throws `AbortError`.
 *
 * @module
 */
import type { AgentBackend, AgentMessage, AgentQuery, AgentRequest } from '../../src/agent/agent-backend.js';
import { AbortError } from '../../src/agent/claude-sdk.js';

/** A gate a scripted message waits for. */
export type Gate = { gate: Promise<void> };
/** A scripted query step: messages that may wait for a gate, or hang until the query is aborted. */
export type GatedStep = Array<AgentMessage | Gate | 'hang'>;

/** A backend whose scripted queries can pause mid-stream until the test opens a gate. */
export class GatedBackend implements AgentBackend {
  readonly requests: AgentRequest[] = [];
  readonly #steps: GatedStep[];
  #waiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(steps: GatedStep[]) {
    this.#steps = [...steps];
  }

  /** Resolves once `count` queries have been started. */
  queried(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  query(request: AgentRequest, signal: AbortSignal): AgentQuery {
    this.requests.push(request);
    for (const waiter of this.#waiters.filter((candidate) => candidate.count <= this.requests.length)) {
      waiter.resolve();
    }
    const step = this.#steps.shift();
    if (step === undefined) throw new Error(`GatedBackend: query ${this.requests.length} was not scripted`);
    const aborted = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    async function* messages(): AsyncGenerator<AgentMessage> {
      for (const entry of step ?? []) {
        await new Promise((resolve) => setImmediate(resolve));
        if (entry === 'hang' || 'gate' in entry) {
          await Promise.race([aborted, entry === 'hang' ? new Promise(() => undefined) : entry.gate]);
        }
        if (signal.aborted) throw new AbortError('Claude Code process aborted by user');
        if (entry !== 'hang' && !('gate' in entry)) yield entry;
      }
    }
    return { [Symbol.asyncIterator]: messages, interrupt: () => Promise.resolve(), close: () => undefined };
  }
}

/** A gate and the function that opens it. */
export function gate(): Gate & { open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { gate: promise, open };
}
