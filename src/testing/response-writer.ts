/**
 * Writes one {@link FakeResponse} to the wire: SSE for streaming requests, JSON for the non-streaming
 * fallback the CLI sends after a failed stream, and the faults (destroyed socket, cut stream, SSE error
 * frame, hang, stall) exactly as probing the real binary showed them (docs/testing.md).
 *
 * @module
 */
import type { ServerResponse } from 'node:http';

import { anthropicErrorBody, errorTypeForStatus, statusForErrorType } from './anthropic-error.js';
import { text } from './content-blocks.js';
import type { FakeResponse } from './fake-response.js';
import { assistantMessage, defaultUsage, messageEvents } from './message-events.js';
import type { AssistantMessage } from './message-events.js';
import { encodeServerSentEvent, encodeServerSentEvents } from './sse-encoder.js';

/** What the writer needs to know about the request it answers. */
export interface ResponseContext {
  response: ServerResponse;
  /** `body.stream` of the request: SSE when true, one JSON body when false. */
  stream: boolean;
  /** `body.model` of the request, echoed in the answer. */
  model: string;
  requestId: string;
  messageId: string;
  /** Size of the request body, the basis of the default `input_tokens`. */
  requestCharacters: number;
}

/** The partial answer a cut, stalled or failing stream starts to send. */
const partialContent = [text('This answer breaks off before it is complete.')];

const retryAfterDefaultS = 1;

function sendJson(
  context: ResponseContext,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  context.response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': context.requestId,
    ...headers,
  });
  context.response.end(JSON.stringify(body));
}

function startEventStream(context: ResponseContext): void {
  context.response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': context.requestId,
  });
  context.response.flushHeaders();
}

/** Destroys the socket once `chunk` has been handed to the kernel, so the client sees it, then the cut. */
function writeThenDestroy(context: ResponseContext, chunk: string): void {
  const destroy = (): void => {
    context.response.socket?.destroy();
  };
  if (chunk === '') destroy();
  else context.response.write(chunk, destroy);
}

function buildMessage(
  context: ResponseContext,
  response: FakeResponse & { kind: 'message' },
): AssistantMessage {
  return assistantMessage({
    id: context.messageId,
    model: context.model,
    content: response.content,
    usage: { ...defaultUsage(context.requestCharacters, response.content), ...response.usage },
    stopReason: response.stopReason,
  });
}

function partialMessage(context: ResponseContext): AssistantMessage {
  return buildMessage(context, { kind: 'message', content: partialContent });
}

/** Sends an Anthropic error with `status`; a 429 always carries `retry-after`. */
export function sendError(
  context: ResponseContext,
  status: number,
  options: {
    errorType?: string | undefined;
    message?: string | undefined;
    retryAfterS?: number | undefined;
    headers?: Record<string, string> | undefined;
  } = {},
): void {
  const errorType = options.errorType ?? errorTypeForStatus(status);
  const retryAfterS = options.retryAfterS ?? (status === 429 ? retryAfterDefaultS : undefined);
  const headers: Record<string, string> = {
    ...(retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) }),
    ...options.headers,
  };
  sendJson(context, status, anthropicErrorBody(errorType, context.requestId, options.message), headers);
}

/**
 * Writes `response` for the request described by `context`. Returns the whole message it sends (for a
 * `message` answer), else null: what the fake served, and so what a client was billed for.
 */
export function writeFakeResponse(response: FakeResponse, context: ResponseContext): AssistantMessage | null {
  if (response.kind === 'message') {
    const message = buildMessage(context, response);
    if (!context.stream) {
      sendJson(context, 200, message);
      return message;
    }
    startEventStream(context);
    const events = messageEvents(message);
    if (response.pauseMs === undefined || response.pauseMs <= 0) {
      context.response.end(encodeServerSentEvents(events));
      return message;
    }
    // A slow reply: the start and the first delta, then nothing for a while (a client closing early
    // cancels the rest).
    context.response.write(encodeServerSentEvents(events.slice(0, 3)));
    const rest = setTimeout(
      () => context.response.end(encodeServerSentEvents(events.slice(3))),
      response.pauseMs,
    );
    context.response.on('close', () => clearTimeout(rest));
    return message;
  }
  writeOtherResponse(response, context);
  return null;
}

function writeOtherResponse(
  response: Exclude<FakeResponse, { kind: 'message' }>,
  context: ResponseContext,
): void {
  switch (response.kind) {
    case 'json':
      sendJson(context, response.status ?? 200, response.body);
      return;
    case 'status':
      sendError(context, response.status, response);
      return;
    case 'destroy':
      context.response.socket?.destroy();
      return;
    case 'hang':
      return;
    case 'cut':
    case 'stall': {
      const message = partialMessage(context);
      // A non-streaming answer breaks off halfway through its JSON body instead of after N events.
      const chunk = context.stream
        ? encodeServerSentEvents(messageEvents(message).slice(0, response.afterEvents))
        : JSON.stringify(message).slice(0, Math.floor(JSON.stringify(message).length / 2));
      if (context.stream) startEventStream(context);
      else {
        context.response.writeHead(200, {
          'content-type': 'application/json',
          'request-id': context.requestId,
        });
        context.response.flushHeaders();
      }
      if (response.kind === 'cut') writeThenDestroy(context, chunk);
      else if (chunk !== '') context.response.write(chunk);
      return;
    }
    case 'sse_error': {
      const errorType = response.errorType ?? 'overloaded_error';
      if (!context.stream) {
        sendError(context, statusForErrorType(errorType), { errorType, message: response.message });
        return;
      }
      startEventStream(context);
      const events = messageEvents(partialMessage(context)).slice(0, response.afterEvents);
      const errorFrame = encodeServerSentEvent({
        event: 'error',
        data: anthropicErrorBody(errorType, context.requestId, response.message),
      });
      context.response.end(encodeServerSentEvents(events) + errorFrame);
      return;
    }
  }
}
