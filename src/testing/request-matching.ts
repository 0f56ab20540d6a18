/**
 * Turns an HTTP request into the {@link FakeRequest} a script sees, using only the few request features
 * that stay stable across Claude Code versions (docs/testing.md): the thread comes from the
 * `x-claude-code-agent-id` header, the turn from the number of assistant messages already in the
 * conversation (so a retry, which re-sends the same body, lands on the same turn), and a compaction request
 * from its fixed opening words.
 *
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../internal/is-record.js';

/** One request the fake received, as recorded and as handed to the script. */
export interface FakeRequest {
  method: string;
  /** The path without the query string (`?beta=true` is ignored). */
  path: string;
  /** Lower-case header names; `x-api-key` and `authorization` are removed. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: FakeRequestBody;
  /** `'main'`, or the subagent's id from the `x-claude-code-agent-id` header. */
  thread: string;
  /** Number of `role: 'assistant'` messages in `body.messages`: 0 for the first call of a thread. */
  turn: number;
  /** True for the CLI's own compaction request (last user text starts with "CRITICAL: Respond with TEXT ONLY"). */
  compaction: boolean;
}

/**
 * A Messages API request body, typed only as far as the fake can vouch for it: Claude Code decides the
 * fields, so each is `unknown` until a test narrows it. A body that was not JSON is kept as its raw text,
 * whose properties read as `undefined` just as these optional fields say.
 */
export interface FakeRequestBody {
  readonly [field: string]: unknown;
  readonly model?: unknown;
  readonly max_tokens?: unknown;
  readonly stream?: unknown;
  readonly system?: unknown;
  readonly tools?: readonly unknown[];
  readonly messages?: readonly unknown[];
}

/** The thread name of requests without an agent id header. */
export const MAIN_THREAD = 'main';

const agentIdHeader = 'x-claude-code-agent-id';
const compactionPrefix = 'CRITICAL: Respond with TEXT ONLY';
const reminderPrefix = '<system-reminder>';
const secretHeaders: ReadonlySet<string> = new Set(['x-api-key', 'authorization', 'proxy-authorization']);

/** Copies headers as plain strings, without the credentials a test log must never hold. */
export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || secretHeaders.has(name)) continue;
    copy[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return copy;
}

/** The messages of a request body (empty when the body has none). */
export function messagesOf(body: unknown): Record<string, unknown>[] {
  if (!isRecord(body) || !Array.isArray(body['messages'])) return [];
  return body['messages'].filter(isRecord);
}

/** The text blocks of a message's content (a string content counts as one block). */
function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter(isRecord)
    .filter((block) => block['type'] === 'text' && typeof block['text'] === 'string')
    .map((block) => block['text'] as string);
}

/**
 * The last text the user side wrote in this request, skipping `<system-reminder>` blocks the CLI adds.
 * Handy for scripts that answer by prompt. Empty when there is none.
 */
export function lastUserText(request: Pick<FakeRequest, 'body'>): string {
  const messages = messagesOf(request.body);
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.['role'] !== 'user') continue;
    const texts = textsOf(message['content']).filter(
      (value) => !value.trimStart().startsWith(reminderPrefix),
    );
    return texts.at(-1) ?? '';
  }
  return '';
}

/** Builds the recorded request. */
export function fakeRequest(init: {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}): FakeRequest {
  const agentId = init.headers[agentIdHeader];
  const thread = typeof agentId === 'string' && agentId !== '' ? agentId : MAIN_THREAD;
  return {
    method: init.method,
    path: new URL(init.url, 'http://fake.invalid').pathname,
    headers: redactHeaders(init.headers),
    // The fake stores what arrived; the type only promises optional, unknown fields (see FakeRequestBody).
    body: init.body as FakeRequestBody,
    thread,
    turn: messagesOf(init.body).filter((message) => message['role'] === 'assistant').length,
    compaction: lastUserText({ body: init.body as FakeRequestBody })
      .trimStart()
      .startsWith(compactionPrefix),
  };
}

/** `main turn 3` or `subagent a51b… turn 2`, for error bodies that say which call had no answer. */
export function describeTurn(request: Pick<FakeRequest, 'thread' | 'turn' | 'compaction'>): string {
  const thread = request.thread === MAIN_THREAD ? 'main' : `subagent ${request.thread}`;
  return `${request.compaction ? 'compaction request on ' : ''}${thread} turn ${request.turn}`;
}
