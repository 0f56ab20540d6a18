/**
 * A scripted fake Anthropic Messages API: a real `node:http` server on 127.0.0.1 (port 0) that the real
 * Claude Code binary talks to through `ANTHROPIC_BASE_URL`. An in-process interceptor cannot see the
 * binary's requests, hence a socket. Routes (docs/testing.md):
 * `POST /v1/messages` → the script's answer; `POST /v1/messages/count_tokens` → `{input_tokens}`; anything
 * else → 404, recorded as unexpected.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { errorMessage } from '../internal/error-text.js';
import { isRecord } from '../internal/is-record.js';

import { text } from './content-blocks.js';
import type { Usage } from './fake-response.js';
import type { FakeScript } from './fake-script.js';
import { UnscriptedCallError } from './fake-script.js';
import { describeTurn, fakeRequest } from './request-matching.js';
import type { FakeRequest } from './request-matching.js';
import { sendError, writeFakeResponse } from './response-writer.js';
import type { ResponseContext } from './response-writer.js';
import { findRequestViolation } from './request-structure.js';

/** Options of {@link FakeAnthropicServer.start}. */
export interface FakeServerOptions {
  /**
   * True (default): a call the script has no answer for gets a 500 whose message says which call it was.
   * False: it gets a short text answer instead, so a lenient test runs on. Either way it is recorded in
   * `unexpectedCalls`.
   */
  strict?: boolean;
  /**
   * Answer 400 `invalid_request_error`, as the real API does, when a `tool_use` lacks its `tool_result` in
   * the next message, a `tool_result` has no `tool_use` before it, a message other than the final
   * assistant one has empty content, or two `tool_use` blocks share an id. Such calls go to
   * `rejectedCalls` and never reach the script. Default false.
   */
  enforceToolPairs?: boolean;
}

const messagesPath = '/v1/messages';
const countTokensPath = '/v1/messages/count_tokens';
const charactersPerToken = 4;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** One whole message the fake sent: see {@link FakeAnthropicServer.served}. */
export interface ServedMessage {
  id: string;
  model: string;
  usage: Usage;
}

/**
 * The fake server. Start it with {@link FakeAnthropicServer.start}, point the child at `url`, read `calls`
 * afterwards, and `close()` it (which also ends hung and stalled connections, so tests finish).
 */
export class FakeAnthropicServer {
  /** `http://127.0.0.1:<port>`, the value for `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /** Every request received, in order, count_tokens and unknown paths included. */
  readonly calls: FakeRequest[] = [];
  /** Requests no script step answered, and requests to unknown paths. */
  readonly unexpectedCalls: FakeRequest[] = [];
  /** Requests answered 400 because of a structural violation (`enforceToolPairs`). */
  readonly rejectedCalls: FakeRequest[] = [];
  /**
   * Every whole message answer sent, in order: its id, model and usage, which is what the client is billed
   * for (a cut or stalled answer is not in it). Price it with the runtime's price table to check a cost.
   */
  readonly served: ServedMessage[] = [];

  readonly #server: Server;
  readonly #script: FakeScript;
  readonly #strict: boolean;
  readonly #enforceToolPairs: boolean;
  readonly #sockets = new Set<Socket>();
  /** Callers of {@link FakeAnthropicServer.nextCall} waiting for the next request. */
  #callWaiters: Array<(call: FakeRequest) => void> = [];
  readonly #port: number;
  #closing: Promise<void> | null = null;
  #offline: Promise<void> | null = null;

  private constructor(server: Server, script: FakeScript, options: FakeServerOptions) {
    this.#server = server;
    this.#script = script;
    this.#strict = options.strict ?? true;
    this.#enforceToolPairs = options.enforceToolPairs ?? false;
    const { port } = server.address() as AddressInfo;
    this.#port = port;
    this.url = `http://127.0.0.1:${port}`;
    server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      // A client that gives up mid-answer must not crash the test process.
      request.on('error', () => undefined);
      response.on('error', () => undefined);
      void this.#handle(request, response).catch(() => response.socket?.destroy());
    });
  }

  /** Starts a server on 127.0.0.1 with an ephemeral port. */
  static async start(script: FakeScript, options: FakeServerOptions = {}): Promise<FakeAnthropicServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new FakeAnthropicServer(server, script, options);
  }

  /** Stops listening and destroys every open connection, hung and stalled ones included. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (this.#offline ?? Promise.resolve()).then(
      () =>
        new Promise<void>((resolve) => {
          if (!this.#server.listening) {
            resolve();
            return;
          }
          this.#server.close(() => resolve());
          for (const socket of this.#sockets) socket.destroy();
        }),
    );
    return this.#closing;
  }

  /**
   * The next request to arrive (any path), so a test can await it instead of sleeping — for example to
   * see that no request comes before a usage limit resets.
   */
  nextCall(): Promise<FakeRequest> {
    return new Promise((resolve) => this.#callWaiters.push(resolve));
  }

  /** True between {@link goOffline} and {@link goOnline}. */
  get offline(): boolean {
    return this.#offline !== null;
  }

  /**
   * A network outage: stops listening and destroys every open connection, so the client's calls in flight
   * break off and new connections are refused (ECONNREFUSED) until {@link goOnline}. The port is kept, so
   * `url` stays valid. Resolves once the listener is closed.
   */
  goOffline(): Promise<void> {
    this.#offline ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      for (const socket of this.#sockets) socket.destroy();
    });
    return this.#offline;
  }

  /** Ends an outage begun by {@link goOffline}: listens again on the same port. */
  async goOnline(): Promise<void> {
    const offline = this.#offline;
    if (offline === null || this.#closing !== null) return;
    await offline;
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#port, '127.0.0.1', () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    this.#offline = null;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const body = parseJson(raw);
    const call = fakeRequest({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body,
    });
    this.calls.push(call);
    const waiters = this.#callWaiters;
    this.#callWaiters = [];
    for (const waiter of waiters) waiter(call);
    const context: ResponseContext = {
      response,
      stream: isRecord(body) && body['stream'] === true,
      model: isRecord(body) && typeof body['model'] === 'string' ? body['model'] : 'claude-fake',
      requestId: `req_fake_${this.calls.length}`,
      // Unique across servers: a resumed session must never see an earlier answer's id again, since the
      // CLI groups transcript entries by message id.
      messageId: `msg_fake_${randomBytes(12).toString('hex')}`,
      requestCharacters: raw.length,
    };

    if (call.method === 'POST' && call.path === countTokensPath) {
      response.writeHead(200, { 'content-type': 'application/json', 'request-id': context.requestId });
      response.end(JSON.stringify({ input_tokens: Math.max(1, Math.ceil(raw.length / charactersPerToken)) }));
      return;
    }
    if (call.method !== 'POST' || call.path !== messagesPath) {
      this.unexpectedCalls.push(call);
      sendError(context, 404, { message: `fake API: no route for ${call.method} ${call.path}` });
      return;
    }
    if (!isRecord(body)) {
      this.unexpectedCalls.push(call);
      sendError(context, 400, { message: 'fake API: the request body is not a JSON object' });
      return;
    }
    if (this.#enforceToolPairs) {
      const violation = findRequestViolation(body);
      if (violation !== null) {
        this.rejectedCalls.push(call);
        sendError(context, 400, { message: violation });
        return;
      }
    }

    let unmatched: string;
    try {
      const answer = await this.#script(call);
      if (answer !== undefined) {
        const message = writeFakeResponse(answer, context);
        if (message !== null)
          this.served.push({ id: message.id, model: message.model, usage: message.usage });
        return;
      }
      unmatched = `fake API: no scripted answer for ${describeTurn(call)}`;
    } catch (error) {
      unmatched =
        error instanceof UnscriptedCallError
          ? error.message
          : `fake API: the script failed for ${describeTurn(call)}: ${errorMessage(error)}`;
    }
    this.unexpectedCalls.push(call);
    if (this.#strict) sendError(context, 500, { message: unmatched });
    else writeFakeResponse({ kind: 'message', content: [text(`[${unmatched}]`)] }, context);
  }
}
