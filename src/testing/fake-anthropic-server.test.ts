import { request as httpRequest } from 'node:http';

import { afterEach, describe, expect, test } from 'vitest';

import { text, thinking, toolUse } from './content-blocks.js';
import { FakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeServerOptions } from './fake-anthropic-server.js';
import type { FakeResponse } from './fake-response.js';
import type { FakeScript } from './fake-script.js';
import { UnscriptedCallError } from './fake-script.js';
import { parseServerSentEvents } from './sse-encoder.js';
import type { ServerSentEvent } from './sse-encoder.js';

const servers: FakeAnthropicServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(script: FakeScript, options: FakeServerOptions = {}): Promise<FakeAnthropicServer> {
  const server = await FakeAnthropicServer.start(script, options);
  servers.push(server);
  return server;
}

function always(response: FakeResponse): FakeScript {
  return () => response;
}

const userHello = { role: 'user', content: 'hello' };

function post(
  server: FakeAnthropicServer,
  body: unknown,
  options: { path?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${server.url}${options.path ?? '/v1/messages?beta=true'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function streamBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'claude-test-1', stream: true, max_tokens: 100, messages: [userHello], ...extra };
}

/** Reads a body to its end or to the error that ends it; returns what arrived and the error, if any. */
async function readAll(response: Response): Promise<{ body: string; error: unknown }> {
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  const decoder = new TextDecoder();
  let body = '';
  if (reader === undefined) return { body, error: null };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body, error: null };
      body += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { body, error };
  }
}

/** Reads until `count` complete SSE frames have arrived, then leaves the stream open. */
async function readFrames(
  response: Response,
  count: number,
): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let body = '';
  while (body.split('\n\n').length - 1 < count) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended after ${body.split('\n\n').length - 1} frames`);
    body += decoder.decode(value, { stream: true });
  }
  expect(body.split('\n\n').length - 1).toBe(count);
  return reader;
}

function eventNames(events: ServerSentEvent[]): string[] {
  return events.map((event) => event.event);
}

/** Token counts as the fake reports them. */
type Usage = Record<string, number> & { output_tokens: number };

/** An error answer of the Messages API. */
interface AnthropicErrorReply {
  type: string;
  error: { type: string; message: string };
}

/** The fields of a streamed event that {@link assemble} reads. */
interface StreamEvent {
  type: string;
  index: number;
  content_block: Record<string, unknown>;
  delta: { type: string; text?: string; thinking?: string; signature?: string; partial_json?: string };
}

/** Joins the deltas of a streamed message back into blocks, as the CLI's reader does. */
function assemble(events: ServerSentEvent[]): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  for (const { data } of events) {
    const event = data as StreamEvent;
    if (event['type'] === 'content_block_start') blocks[event['index']] = { ...event['content_block'] };
    if (event['type'] !== 'content_block_delta') continue;
    const block = blocks[event['index']]!;
    const delta = event['delta'];
    if (delta.type === 'text_delta') block['text'] = `${block['text'] as string}${delta.text}`;
    if (delta.type === 'thinking_delta')
      block['thinking'] = `${block['thinking'] as string}${delta.thinking}`;
    if (delta.type === 'signature_delta') block['signature'] = delta.signature;
    if (delta.type === 'input_json_delta')
      block['json'] = `${(block['json'] as string | undefined) ?? ''}${delta.partial_json}`;
  }
  return blocks.map(({ json, ...block }) =>
    json === undefined ? block : { ...block, input: JSON.parse(json as string) },
  );
}

describe('FakeAnthropicServer', () => {
  test('listens on 127.0.0.1 with an ephemeral port', async () => {
    const server = await start(always({ kind: 'message', content: [text('hi')] }));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toBe('http://127.0.0.1:0');
  });

  test('streams a text answer as SSE with an event line on every frame', async () => {
    const server = await start(always({ kind: 'message', content: [text('Hello there, world')] }));
    const response = await post(server, streamBody());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const raw = await response.text();
    for (const frame of raw.split('\n\n').filter((part) => part !== ''))
      expect(frame).toMatch(/^event: \w+\ndata: /);
    const events = parseServerSentEvents(raw);
    expect(eventNames(events)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(assemble(events)).toEqual([{ type: 'text', text: 'Hello there, world' }]);
    const start0 = events[0]?.data as Record<string, unknown>;
    expect(start0['message']).toMatchObject({ role: 'assistant', model: 'claude-test-1', content: [] });
    expect(events[5]?.data).toMatchObject({ delta: { stop_reason: 'end_turn' } });
  });

  test('streams tool_use input as JSON deltas and stops with tool_use', async () => {
    const call = toolUse('Bash', { command: 'echo hi > f.txt' }, 'toolu_1');
    const server = await start(always({ kind: 'message', content: [text('Running it.'), call] }));
    const events = parseServerSentEvents(await (await post(server, streamBody())).text());
    expect(assemble(events)).toEqual([
      { type: 'text', text: 'Running it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi > f.txt' } },
    ]);
    expect(events.filter((event) => event.event === 'content_block_stop')).toHaveLength(2);
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  test('streams thinking with a signature delta', async () => {
    const server = await start(
      always({ kind: 'message', content: [thinking('Let me think.'), text('Done.')] }),
    );
    const events = parseServerSentEvents(await (await post(server, streamBody())).text());
    expect(assemble(events)).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'fake-signature' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  test('reports default usage that grows with the request and puts output_tokens in message_delta', async () => {
    const server = await start(always({ kind: 'message', content: [text('ok')] }));
    const usageOf = async (body: unknown): Promise<Record<string, number>> => {
      const events = parseServerSentEvents(await (await post(server, body)).text());
      const startUsage = (events[0]?.data as { message: { usage: Usage } }).message.usage;
      const deltaUsage = (events.at(-2)?.data as { usage: Usage }).usage;
      expect(startUsage.output_tokens).toBe(1);
      return { ...startUsage, output_tokens: deltaUsage.output_tokens };
    };
    const small = await usageOf(streamBody());
    const large = await usageOf(streamBody({ messages: [{ role: 'user', content: 'x'.repeat(8000) }] }));
    expect(Object.keys(small).sort()).toEqual([
      'cache_creation_input_tokens',
      'cache_read_input_tokens',
      'input_tokens',
      'output_tokens',
    ]);
    expect(small['output_tokens']).toBeGreaterThan(0);
    expect(large['input_tokens']).toBeGreaterThan(small['input_tokens']! + 1900);
  });

  test('records the usage of each whole message it served, and none for a cut or an error', async () => {
    const usage = {
      input_tokens: 7,
      output_tokens: 11,
      cache_read_input_tokens: 13,
      cache_creation_input_tokens: 0,
    };
    const answers: FakeResponse[] = [
      { kind: 'message', content: [text('ok')], usage },
      { kind: 'cut', afterEvents: 2 },
      { kind: 'status', status: 529 },
      { kind: 'message', content: [text('again')], usage },
    ];
    const server = await start(() => answers.shift());
    const bodies = [await post(server, streamBody())];
    for (let index = 0; index < 3; index += 1)
      bodies.push(await post(server, streamBody()).catch(() => new Response()));
    const ids = await Promise.all(bodies.map(async (response) => (await readAll(response)).body));
    expect(server.served.map((message) => [message.model, message.usage])).toEqual([
      ['claude-test-1', usage],
      ['claude-test-1', usage],
    ]);
    // The ids are the ones the client saw.
    expect(ids[0]).toContain(server.served[0]?.id);
    expect(ids[3]).toContain(server.served[1]?.id);
  });

  test('lets a response override usage field by field', async () => {
    const server = await start(
      always({
        kind: 'message',
        content: [text('ok')],
        usage: { input_tokens: 3000, cache_read_input_tokens: 1500 },
      }),
    );
    const body = (await (await post(server, { ...streamBody(), stream: false })).json()) as Record<
      string,
      unknown
    >;
    expect(body['usage']).toMatchObject({
      input_tokens: 3000,
      cache_read_input_tokens: 1500,
      cache_creation_input_tokens: 0,
    });
  });

  test('answers a non-streaming request with one JSON message', async () => {
    const call = toolUse('Read', { file_path: 'a.txt' }, 'toolu_2');
    const server = await start(always({ kind: 'message', content: [call], stopReason: 'tool_use' }));
    const response = await post(server, { ...streamBody(), stream: false });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test-1',
      content: [call],
      stop_reason: 'tool_use',
      stop_sequence: null,
    });
  });

  test('gives every answer a message id no other server uses', async () => {
    const script = always({ kind: 'message', content: [text('ok')] });
    const ids: unknown[] = [];
    for (const server of [await start(script), await start(script)]) {
      for (let index = 0; index < 2; index++) {
        ids.push(
          ((await (await post(server, { ...streamBody(), stream: false })).json()) as { id: unknown }).id,
        );
      }
    }
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toMatch(/^msg_fake_[0-9a-f]{24}$/);
  });

  test('answers count_tokens with input_tokens', async () => {
    const server = await start(() => {
      throw new Error('count_tokens must not reach the script');
    });
    const response = await post(
      server,
      { model: 'm', messages: [userHello] },
      { path: '/v1/messages/count_tokens?beta=true' },
    );
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(200);
    expect(body['input_tokens']).toBeGreaterThan(0);
    expect(server.calls.map((call) => call.path)).toEqual(['/v1/messages/count_tokens']);
    expect(server.unexpectedCalls).toEqual([]);
  });

  test('answers any JSON with any status', async () => {
    const server = await start(always({ kind: 'json', status: 202, body: { anything: [1, 2] } }));
    const response = await post(server, streamBody());
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ anything: [1, 2] });
  });

  test.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [529, 'overloaded_error'],
  ])('answers status %i with an Anthropic %s body', async (status, errorType) => {
    const server = await start(always({ kind: 'status', status }));
    const response = await post(server, streamBody());
    expect(response.status).toBe(status);
    expect(response.headers.get('retry-after')).toBe(status === 429 ? '1' : null);
    const body = (await response.json()) as AnthropicErrorReply;
    expect(body).toMatchObject({ type: 'error', error: { type: errorType } });
    expect(body['error'].message).not.toBe('');
  });

  test('sends a chosen retry-after, error type and message', async () => {
    const server = await start(
      always({ kind: 'status', status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' }),
    );
    expect(await (await post(server, streamBody())).json()).toMatchObject({
      error: { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' },
    });
    const limited = await start(
      always({ kind: 'status', status: 429, retryAfterS: 7, errorType: 'custom_error' }),
    );
    const response = await post(limited, streamBody());
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toMatchObject({ error: { type: 'custom_error' } });
  });

  test('destroys the connection before any header', async () => {
    const server = await start(always({ kind: 'destroy' }));
    await expect(post(server, streamBody())).rejects.toThrow();
    expect(server.calls).toHaveLength(1);
  });

  test('cuts a stream after the given number of events', async () => {
    const server = await start(always({ kind: 'cut', afterEvents: 3 }));
    const response = await post(server, streamBody());
    expect(response.status).toBe(200);
    const { body, error } = await readAll(response);
    expect(error).not.toBeNull();
    expect(eventNames(parseServerSentEvents(body))).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
    ]);
  });

  test('cuts a non-streaming answer halfway through its JSON', async () => {
    const server = await start(always({ kind: 'cut', afterEvents: 3 }));
    const { body, error } = await readAll(await post(server, { ...streamBody(), stream: false }));
    expect(error).not.toBeNull();
    expect(body.startsWith('{"id":"msg_fake_')).toBe(true);
    expect((): unknown => JSON.parse(body)).toThrow();
  });

  test('ends a stream with an SSE error event after the given number of events', async () => {
    const server = await start(always({ kind: 'sse_error', afterEvents: 2 }));
    const { body, error } = await readAll(await post(server, streamBody()));
    expect(error).toBeNull();
    const events = parseServerSentEvents(body);
    expect(eventNames(events)).toEqual(['message_start', 'content_block_start', 'error']);
    expect(events[2]?.data).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });

  test('answers a non-streaming request to an SSE error with the matching status', async () => {
    const server = await start(always({ kind: 'sse_error', afterEvents: 2, errorType: 'rate_limit_error' }));
    const response = await post(server, { ...streamBody(), stream: false });
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
  });

  test('stalls after the given number of events until the server closes', async () => {
    const server = await start(always({ kind: 'stall', afterEvents: 2 }));
    const response = await post(server, streamBody());
    const reader = await readFrames(response, 2);
    const rest = reader.read();
    await server.close();
    await expect(rest).rejects.toThrow();
  });

  test('hangs without an answer until the server closes', async () => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const server = await start(() => {
      received();
      return { kind: 'hang' };
    });
    const pending = post(server, streamBody());
    await arrived;
    await server.close();
    await expect(pending).rejects.toThrow();
  });

  test('records calls with thread, turn, path and headers without credentials', async () => {
    const server = await start(always({ kind: 'message', content: [text('ok')] }));
    await post(server, streamBody(), {
      headers: { 'x-api-key': 'sk-secret', authorization: 'Bearer secret' },
    });
    const history = [
      userHello,
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      { role: 'system', content: 'harness note' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: [{ type: 'text', text: 'c' }] },
      { role: 'user', content: 'd' },
    ];
    await post(server, streamBody({ messages: history, unknown_field: { x: 1 } }), {
      headers: { 'x-claude-code-agent-id': 'agent-7' },
    });
    expect(server.calls.map((call) => [call.method, call.path, call.thread, call.turn])).toEqual([
      ['POST', '/v1/messages', 'main', 0],
      ['POST', '/v1/messages', 'agent-7', 2],
    ]);
    expect(server.calls[0]?.headers['x-api-key']).toBeUndefined();
    expect(server.calls[0]?.headers['authorization']).toBeUndefined();
    expect(server.calls[0]?.headers['content-type']).toBe('application/json');
    expect(server.calls[1]?.body['unknown_field']).toEqual({ x: 1 });
    expect(server.unexpectedCalls).toEqual([]);
  });

  test('marks the CLI compaction request', async () => {
    const server = await start(always({ kind: 'message', content: [text('<summary>s</summary>')] }));
    const compaction = {
      role: 'user',
      content: [
        { type: 'text', text: 'CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.' },
        { type: 'text', text: '<system-reminder>note</system-reminder>' },
      ],
    };
    await post(server, streamBody({ messages: [compaction] }));
    await post(server, streamBody());
    expect(server.calls.map((call) => call.compaction)).toEqual([true, false]);
  });

  test('answers an unscripted call with a 500 that says which call it was, and records it', async () => {
    const server = await start(() => undefined);
    const response = await post(server, streamBody());
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: 'fake API: no scripted answer for main turn 0' },
    });
    expect(server.unexpectedCalls).toHaveLength(1);
  });

  test('passes an UnscriptedCallError message and a script failure through to the 500', async () => {
    const server = await start((request) => {
      if (request.turn === 0) throw new UnscriptedCallError('fake API: nothing for you');
      throw new Error('boom');
    });
    const first = (await (await post(server, streamBody())).json()) as AnthropicErrorReply;
    const second = (await (
      await post(
        server,
        streamBody({ messages: [userHello, { role: 'assistant', content: 'x' }, userHello] }),
      )
    ).json()) as AnthropicErrorReply;
    expect(first['error'].message).toBe('fake API: nothing for you');
    expect(second['error'].message).toBe('fake API: the script failed for main turn 1: boom');
    expect(server.unexpectedCalls).toHaveLength(2);
  });

  test('answers an unscripted call with a text message when not strict, and still records it', async () => {
    const server = await start(() => undefined, { strict: false });
    const response = await post(server, { ...streamBody(), stream: false });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      content: [{ type: 'text', text: '[fake API: no scripted answer for main turn 0]' }],
    });
    expect(server.unexpectedCalls).toHaveLength(1);
  });

  test('answers an unknown path with 404 and records it as unexpected', async () => {
    const server = await start(always({ kind: 'message', content: [text('ok')] }));
    const response = await fetch(`${server.url}/v1/models`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { type: 'not_found_error', message: 'fake API: no route for GET /v1/models' },
    });
    expect(server.unexpectedCalls.map((call) => call.path)).toEqual(['/v1/models']);
  });

  test('answers a body that is not JSON with 400 and records it as unexpected', async () => {
    const server = await start(always({ kind: 'message', content: [text('ok')] }));
    const response = await post(server, 'not json');
    expect(response.status).toBe(400);
    expect(server.calls[0]?.body).toBe('not json');
    expect(server.unexpectedCalls).toHaveLength(1);
  });

  test('rejects an unanswered tool_use with the real API 400 when enforcing tool pairs', async () => {
    const server = await start(always({ kind: 'message', content: [text('ok')] }), {
      enforceToolPairs: true,
    });
    const broken = [
      userHello,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'Bash', input: {} }] },
      { role: 'user', content: 'no result here' },
    ];
    const response = await post(server, streamBody({ messages: broken }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining(
          'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_x',
        ) as unknown,
      },
    });
    expect(server.rejectedCalls).toHaveLength(1);
    const paired = [
      userHello,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'Bash', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'ok' }] },
    ];
    expect((await post(server, streamBody({ messages: paired }))).status).toBe(200);
  });

  test.each([
    [
      'an empty assistant message',
      [userHello, { role: 'assistant', content: [] }, { role: 'user', content: 'go on' }],
      'messages.1: all messages must have non-empty content except for the optional final assistant message',
    ],
    [
      'an empty user message',
      [userHello, { role: 'assistant', content: 'hi' }, { role: 'user', content: '' }],
      'messages.2: all messages must have non-empty content',
    ],
    [
      'two tool calls sharing an id',
      [
        userHello,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'a' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'b' }] },
      ],
      'messages.3.content.0: `tool_use` ids must be unique',
    ],
  ])('rejects %s with the real API 400 when enforcing tool pairs', async (_name, messages, expected) => {
    const server = await start(always({ kind: 'message', content: [text('ok')] }), {
      enforceToolPairs: true,
    });
    const response = await post(server, streamBody({ messages }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining(expected) as unknown },
    });
    expect(server.rejectedCalls).toHaveLength(1);
    // The API continues a final assistant message, even an empty one.
    const prefill = [userHello, { role: 'assistant', content: [] }];
    expect((await post(server, streamBody({ messages: prefill }))).status).toBe(200);
  });

  test('lets a broken transcript through when not enforcing tool pairs', async () => {
    const server = await start(always({ kind: 'message', content: [text('ok')] }));
    const orphan = [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_gone', content: 'x' }] },
    ];
    expect((await post(server, streamBody({ messages: orphan }))).status).toBe(200);
    expect(server.rejectedCalls).toEqual([]);
  });

  test('serves plain node:http clients too', async () => {
    const server = await start(always({ kind: 'message', content: [text('ok')] }));
    const requestBody = JSON.stringify({ ...streamBody(), stream: false });
    const once = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const request = httpRequest(`${server.url}/v1/messages`, { method: 'POST' }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', reject);
        request.end(requestBody);
      });
    expect(await Promise.all([once(), once(), once()])).toEqual([200, 200, 200]);
  });

  test('closes idempotently', async () => {
    const server = await start(always({ kind: 'hang' }));
    await Promise.all([server.close(), server.close()]);
    await expect(fetch(server.url)).rejects.toThrow();
  });

  test('refuses connections while offline and answers again on the same port once online', async () => {
    const server = await start(always({ kind: 'message', content: [text('back')] }));
    const hung = fetch(`${server.url}/never`, { method: 'POST', body: '{}' }).catch(
      (error: unknown) => error,
    );
    await server.goOffline();
    expect(server.offline).toBe(true);
    // The call in flight breaks off, and a new connection is refused outright.
    expect(await hung).toBeInstanceOf(Error);
    const refused = await post(server, streamBody()).catch((error: unknown) => error);
    expect(String((refused as Error & { cause?: unknown }).cause)).toContain('ECONNREFUSED');
    await server.goOnline();
    expect(server.offline).toBe(false);
    const response = await post(server, streamBody());
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('message_stop');
  });

  test('closes while offline', async () => {
    const server = await start(always({ kind: 'hang' }));
    await server.goOffline();
    await server.close();
    await server.goOnline();
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
