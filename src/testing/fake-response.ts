/**
 * What a script tells the fake Messages API to do with one request: answer, fail with an HTTP status, or
 * misbehave on the wire in one of the ways the Claude Code binary has to survive (docs/testing.md).
 *
 * @module
 */
import type { ContentBlock } from './content-blocks.js';

/** Token usage as the Messages API reports it (wire names). Drives the CLI's cost and context numbers. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/**
 * One scripted answer.
 *
 * - `message`: an assistant message, streamed as SSE (or one JSON `Message` when the request is not
 *   streaming). `usage` overrides the defaults field by field; `stopReason` defaults to `tool_use` when a
 *   block is a tool call, else `end_turn`; `pauseMs` makes it a slow reply that pauses mid-stream.
 * - `json`: any JSON body with any status (200 by default).
 * - `status`: an HTTP error with an Anthropic error body; `errorType` and `message` default by status; a
 *   429 carries `retry-after` (`retryAfterS`, default 1 s); `headers` adds response headers (the
 *   `anthropic-ratelimit-unified-*` headers of a subscription's usage limit, for example).
 * - `destroy`: the socket is destroyed before any header.
 * - `hang`: no answer at all (ends when the server closes).
 * - `cut`: SSE headers and the first `afterEvents` events of a partial answer, then the socket is destroyed.
 * - `stall`: SSE headers and `afterEvents` events, then silence (ends when the server closes).
 * - `sse_error`: SSE headers and `afterEvents` events, then an `event: error` frame; a non-streaming request
 *   gets the HTTP status that matches `errorType` (default `overloaded_error` → 529).
 */
export type FakeResponse =
  | {
      kind: 'message';
      content: ContentBlock[];
      usage?: Partial<Usage>;
      stopReason?: string;
      /** A slow reply: the stream stops this long after its third event (the first delta), then ends. */
      pauseMs?: number;
    }
  | { kind: 'json'; status?: number; body: unknown }
  | {
      kind: 'status';
      status: number;
      errorType?: string;
      message?: string;
      retryAfterS?: number;
      headers?: Record<string, string>;
    }
  | { kind: 'destroy' | 'hang' }
  | { kind: 'cut' | 'stall'; afterEvents: number }
  | { kind: 'sse_error'; afterEvents: number; errorType?: string; message?: string };

/** The kinds of {@link FakeResponse}. */
export type FakeResponseKind = FakeResponse['kind'];

/** An assistant message answer: shorthand for `{ kind: 'message', content, ...options }`. */
export function message(
  content: ContentBlock[],
  options: { usage?: Partial<Usage>; stopReason?: string; pauseMs?: number } = {},
): FakeResponse {
  return { kind: 'message', content, ...options };
}
