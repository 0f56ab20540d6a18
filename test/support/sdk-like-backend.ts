/**
 * An in-process backend for runtime unit tests that behaves like the SDK towards the session store: a
 * resumed query first loads the session from `options.sessionStore` (as the SDK does before spawning the
 * child), and every assistant message is appended to the store before it is yielded (eager flush). Steps
 * can also hang until aborted, to drive the stall watchdog. The SDK module itself is never mocked.
 *
 * @module
 */
import type { AgentBackend, AgentMessage, AgentQuery, AgentRequest } from '../../src/agent/agent-backend.js';
import { AbortError, type SDKAssistantMessage, type SDKResultMessage } from '../../src/agent/claude-sdk.js';
import { projectKey } from '../../src/agent/project-key.js';
import {
  sdkAssistant,
  sdkAssistantText,
  sdkErrorResult,
  sdkInit,
  sdkResult,
  type SdkSuccessResult,
} from '../../src/testing/sdk-messages.js';

/** One scripted query: messages (and optionally a hang after them), or an error thrown at once. */
export type LikeStep = AgentMessage[] | Error | { messages: AgentMessage[]; hang: true };

/** A scripted backend that loads and mirrors like the SDK. */
export class SdkLikeBackend implements AgentBackend {
  readonly requests: AgentRequest[] = [];
  readonly #steps: LikeStep[];

  constructor(steps: LikeStep[]) {
    this.#steps = [...steps];
  }

  /** Steps not asked for yet. */
  get remaining(): number {
    return this.#steps.length;
  }

  query(request: AgentRequest, signal: AbortSignal): AgentQuery {
    this.requests.push(request);
    const next = this.#steps.shift();
    if (next === undefined) throw new Error(`SdkLikeBackend: query ${this.requests.length} was not scripted`);
    const step: LikeStep = next;
    const options = request.options;
    const store = options.sessionStore;
    const key = projectKey(options.cwd ?? '.');
    let closed = false;
    async function* messages(): AsyncGenerator<AgentMessage> {
      if (store && options.resume) await store.load({ projectKey: key, sessionId: options.resume });
      if (step instanceof Error) throw step;
      const list = Array.isArray(step) ? step : step.messages;
      for (const message of list) {
        await new Promise((resolve) => setImmediate(resolve));
        if (closed) return;
        if (signal.aborted) throw new AbortError('Claude Code process aborted by user');
        if (store && message.type === 'assistant' && message.session_id) {
          await store.append({ projectKey: key, sessionId: message.session_id }, [
            {
              type: 'assistant',
              uuid: `${message.uuid}-${Math.random()}`,
              timestamp: new Date().toISOString(),
              message: message.message,
            },
          ]);
        }
        yield message;
      }
      if (!Array.isArray(step)) {
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        throw new AbortError('Claude Code process aborted by user');
      }
      const last = list.findLast((message) => message.type === 'result');
      if (last?.type === 'result' && last.is_error) throw new Error('Claude Code returned an error result');
    }
    return {
      [Symbol.asyncIterator]: messages,
      interrupt: () => Promise.resolve(),
      close: () => {
        closed = true;
      },
    };
  }
}

/** What a test script says an assistant message holds: text blocks. */
type TextBlock = { type: 'text'; text: string };

/**
 * The fields of a scripted `result`, under the SDK's own names. With `subtype` or `errors` it is an error
 * result (`sdkErrorResult`); otherwise a `success`, which a failed API call also is (`is_error`).
 */
export interface LikeResult {
  session_id?: string;
  /** `0.5` by default. */
  total_cost_usd?: number;
  /** `1` by default. */
  num_turns?: number;
  is_error?: boolean;
  result?: string;
  terminal_reason?: SdkSuccessResult['terminal_reason'];
  api_error_status?: number | null;
  subtype?: Extract<SDKResultMessage, { errors: string[] }>['subtype'];
  errors?: string[];
}

/** SDK messages for tests, built with the typed builders of `src/testing/sdk-messages.ts`. */
export const sdk = {
  init(sessionId = 'sess-1'): AgentMessage {
    return sdkInit({ sessionId });
  },
  assistant(
    content: TextBlock[],
    options: { sessionId?: string; id?: string; tokens?: number; output?: number; model?: string } = {},
  ): AgentMessage {
    return sdkAssistant(
      content.map((block) => ({ ...block, citations: null })),
      {
        sessionId: options.sessionId ?? 'sess-1',
        id: options.id ?? 'msg_1',
        model: options.model ?? 'claude-opus-5-5',
        inputTokens: options.tokens ?? 0,
        outputTokens: options.output ?? 0,
      },
    );
  },
  text(text: string, options: { sessionId?: string; id?: string; tokens?: number; output?: number } = {}) {
    return sdk.assistant([{ type: 'text', text }], options);
  },
  syntheticError(
    text: string,
    sessionId = 'sess-1',
    kind: SDKAssistantMessage['error'] = 'server_error',
  ): AgentMessage {
    return sdkAssistantText(text, { sessionId, id: 'm_err', model: '<synthetic>', error: kind });
  },
  result(fields: LikeResult = {}): AgentMessage {
    const common = {
      sessionId: fields.session_id ?? 'sess-1',
      costUsd: fields.total_cost_usd ?? 0.5,
      numTurns: fields.num_turns ?? 1,
    };
    if (fields.subtype !== undefined || fields.errors !== undefined) {
      return sdkErrorResult(fields.errors ?? [], {
        ...common,
        ...(fields.subtype === undefined ? {} : { subtype: fields.subtype }),
      });
    }
    return sdkResult({
      ...common,
      result: fields.result ?? 'ok',
      isError: fields.is_error ?? false,
      ...(fields.terminal_reason === undefined ? {} : { terminalReason: fields.terminal_reason }),
      ...(fields.api_error_status === undefined ? {} : { apiErrorStatus: fields.api_error_status }),
    });
  },
  apiFailure(text: string, sessionId = 'sess-1', status: number | null = null): AgentMessage[] {
    return [
      sdk.syntheticError(text, sessionId),
      sdk.result({
        is_error: true,
        session_id: sessionId,
        terminal_reason: 'api_error',
        api_error_status: status,
        total_cost_usd: 0,
        result: text,
      }),
    ];
  },
};
