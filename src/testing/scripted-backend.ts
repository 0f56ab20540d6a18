/**
 * An in-process {@link AgentBackend} for unit tests of pure runtime logic: each `query()` plays the next
 * scripted step (a list of SDK messages, or an Error the iteration throws). No process, no network.
 * Like the real backend, a query whose last `result` is an error throws after yielding it (decisions.md D8),
 * so code under test meets the same control flow. Strict both ways: a query beyond the script throws
 * {@link UnexpectedBackendCallError}, and {@link ScriptedBackend.assertComplete} throws
 * {@link UnconsumedStepsError} when steps were left over.
 *
 * @module
 */
import type { AgentBackend, AgentMessage, AgentQuery, AgentRequest } from '../agent/agent-backend.js';
import { AbortError } from '../agent/claude-sdk.js';

/** One scripted query: the messages it yields, or the error its iteration throws. */
export type ScriptedStep = AgentMessage[] | Error;

/** Thrown when the code under test starts more queries than were scripted. */
export class UnexpectedBackendCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Thrown by {@link ScriptedBackend.assertComplete} when scripted steps were never asked for. */
export class UnconsumedStepsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

function abortError(): Error {
  // The same class and message the SDK throws when its abort controller fires.
  return new AbortError('Claude Code process aborted by user');
}

/** The throw the SDK adds after an error result, or null when the last result is not an error. */
function errorAfterResult(messages: readonly AgentMessage[]): Error | null {
  const result = messages.findLast((message) => message.type === 'result');
  if (result?.type !== 'result' || !result.is_error) return null;
  const detail = result.subtype === 'success' ? result.result : result.errors.join('; ');
  return new Error(`Claude Code returned an error result: ${detail}`);
}

function nextTask(): Promise<void> {
  // A macrotask between messages, so timers and abort signals can act mid-query as with the real SDK.
  return new Promise((resolve) => setImmediate(resolve));
}

function preview(prompt: string): string {
  return prompt.length > 60 ? `${prompt.slice(0, 57)}...` : prompt;
}

/** The scripted backend. `requests` records every query's request in order. */
export class ScriptedBackend implements AgentBackend {
  /** Every request passed to `query()`, in order (also the unexpected ones). */
  readonly requests: AgentRequest[] = [];
  /** How many times `interrupt()` was called on any of its queries. */
  interrupts = 0;

  readonly #steps: readonly ScriptedStep[];
  #next = 0;
  #unexpected: UnexpectedBackendCallError | null = null;

  /** @param steps One entry per expected `query()` call, in order. */
  constructor(steps: readonly ScriptedStep[]) {
    this.#steps = steps;
  }

  /** Steps not asked for yet. */
  get remaining(): number {
    return this.#steps.length - this.#next;
  }

  query(request: AgentRequest, signal: AbortSignal): AgentQuery {
    this.requests.push(request);
    const step = this.#steps[this.#next];
    if (step === undefined) {
      const error = new UnexpectedBackendCallError(
        `ScriptedBackend: query ${this.requests.length} was not scripted (${this.#steps.length} steps); ` +
          `prompt: "${preview(request.prompt)}"`,
      );
      this.#unexpected ??= error;
      throw error;
    }
    this.#next++;
    let closed = false;
    return {
      [Symbol.asyncIterator]: async function* (): AsyncGenerator<AgentMessage> {
        if (step instanceof Error) {
          await nextTask();
          throw step;
        }
        for (const message of step) {
          await nextTask();
          if (closed) return;
          if (signal.aborted) throw abortError();
          yield message;
        }
        const error = errorAfterResult(step);
        if (error !== null) throw error;
      },
      interrupt: () => {
        this.interrupts++;
        return Promise.resolve();
      },
      close: () => {
        closed = true;
      },
    };
  }

  /**
   * Throws the first {@link UnexpectedBackendCallError} (in case the code under test swallowed it), or
   * {@link UnconsumedStepsError} when scripted steps are left. Call it at the end of a test.
   */
  assertComplete(): void {
    if (this.#unexpected !== null) throw this.#unexpected;
    if (this.remaining > 0) {
      throw new UnconsumedStepsError(
        `ScriptedBackend: ${this.remaining} of ${this.#steps.length} scripted steps were never asked for`,
      );
    }
  }
}
