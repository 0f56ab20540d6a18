import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PROBE_FALLBACK_MODEL, probeCredentials, probeModel, probeUrl } from './probe-credentials.js';

type Recorded = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
type Handler = (response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let requests: Recorded[];
let handler: Handler;
const hanging = new Set<ServerResponse>();

function reply(status: number, body: string): Handler {
  return (response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  };
}

beforeEach(async () => {
  requests = [];
  handler = reply(200, '{"type":"message"}');
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  for (const response of hanging) response.destroy();
  hanging.clear();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const env = (extra: Record<string, string> = {}) => ({
  ANTHROPIC_API_KEY: 'sk-ant-api03-test',
  ANTHROPIC_BASE_URL: baseUrl,
  ANTHROPIC_MODEL: 'my-model',
  ...extra,
});

describe('probeCredentials', () => {
  test('sends one POST /v1/messages with max_tokens 16 and the API key header', async () => {
    const result = await probeCredentials({ env: env() });
    expect(result).toEqual({ verdict: 'ok', reason: 'HTTP 200', status: 200, verified: true });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/messages');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      model: 'my-model',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.headers['x-api-key']).toBe('sk-ant-api03-test');
    expect(request?.headers['authorization']).toBeUndefined();
  });

  test('sends a gateway token as a bearer token under the base URL path', async () => {
    await probeCredentials({
      env: {
        ANTHROPIC_AUTH_TOKEN: 'gw-token',
        ANTHROPIC_BASE_URL: `${baseUrl}/gateway//`,
        ANTHROPIC_MODEL: 'm',
      },
    });
    expect(requests[0]?.url).toBe('/gateway/v1/messages');
    expect(requests[0]?.headers['authorization']).toBe('Bearer gw-token');
    expect(requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  test.each([401, 403])('judges HTTP %i as rejected credentials', async (status) => {
    handler = reply(status, `{"error":{"type":"authentication_error","message":"${'x'.repeat(300)}"}}`);
    const result = await probeCredentials({ env: env() });
    expect(result.verdict).toBe('auth');
    expect(result.status).toBe(status);
    expect(result.reason.startsWith(`HTTP ${status} authentication rejected {"error"`)).toBe(true);
    // The detail is the first 200 characters of the body.
    expect(result.reason.length).toBe(`HTTP ${status} authentication rejected `.length + 200);
  });

  test('judges HTTP 404 as a wrong URL or model', async () => {
    handler = reply(404, 'Not Found');
    expect(await probeCredentials({ env: env() })).toEqual({
      verdict: 'config',
      reason: 'HTTP 404 wrong gateway URL or model name Not Found',
      status: 404,
      verified: false,
    });
  });

  test.each([
    'not_found_error',
    'model: Not Found',
    'model does not exist',
    'Unknown model x',
    'invalid model',
  ])('judges HTTP 400 mentioning %j as a wrong URL or model', async (text) => {
    handler = reply(400, `{"error":{"message":"${text}"}}`);
    expect((await probeCredentials({ env: env() })).verdict).toBe('config');
  });

  test('lets another HTTP 400 through as inconclusive', async () => {
    handler = reply(400, '{"error":{"type":"invalid_request_error","message":"max_tokens too small"}}');
    const result = await probeCredentials({ env: env() });
    expect(result).toMatchObject({ verdict: 'ok', status: 400, verified: false });
    expect(result.reason).toContain('(inconclusive, letting it through)');
  });

  test('treats "not found" for the built-in fallback model as undecidable, not as wrong configuration', async () => {
    handler = reply(404, '{"error":{"type":"not_found_error"}}');
    const result = await probeCredentials({ env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: baseUrl } });
    expect((JSON.parse(requests[0]?.body ?? '') as { model?: unknown }).model).toBe(PROBE_FALLBACK_MODEL);
    expect(result).toMatchObject({ verdict: 'ok', status: 404, verified: false });
  });

  test.each([500, 503])('judges HTTP %i as a network problem', async (status) => {
    handler = reply(status, 'overloaded');
    expect(await probeCredentials({ env: env() })).toEqual({
      verdict: 'net',
      reason: `HTTP ${status} server error (not your credentials)`,
      status,
      verified: false,
    });
  });

  test('lets HTTP 429 through as inconclusive with the first 80 characters of the body', async () => {
    handler = reply(429, 'r'.repeat(120));
    const result = await probeCredentials({ env: env() });
    expect(result).toEqual({
      verdict: 'ok',
      reason: `HTTP 429 (inconclusive, letting it through) ${'r'.repeat(80)}`,
      status: 429,
      verified: false,
    });
  });

  test('judges a closed port as a network problem', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await probeCredentials({ env: env({ ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` }) });
    expect(result.verdict).toBe('net');
    expect(result.status).toBeNull();
    expect(result.reason).toMatch(/^connect ECONNREFUSED /);
  });

  test('judges a server slower than the time limit as a network problem', async () => {
    handler = (response) => hanging.add(response);
    const started = Date.now();
    const result = await probeCredentials({ env: env(), timeoutMs: 200 });
    expect(result.verdict).toBe('net');
    expect(result.reason).toBe('no answer within 0.2 s');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('rejects when the caller aborts', async () => {
    const controller = new AbortController();
    // Abort once the request has arrived, so the abort hits a request in flight.
    handler = (response) => {
      hanging.add(response);
      controller.abort(new Error('stop'));
    };
    await expect(probeCredentials({ env: env(), signal: controller.signal })).rejects.toThrow('stop');
  });

  test('sends nothing without credentials', async () => {
    expect(await probeCredentials({ env: { ANTHROPIC_BASE_URL: baseUrl } })).toEqual({
      verdict: 'auth',
      reason: 'no credentials',
      status: null,
      verified: false,
    });
    expect(requests).toEqual([]);
  });

  test('sends nothing for an OAuth token and lets it through unverified', async () => {
    const result = await probeCredentials({
      env: { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-x', ANTHROPIC_BASE_URL: baseUrl },
    });
    expect(result).toMatchObject({ verdict: 'ok', status: null, verified: false });
    expect(requests).toEqual([]);
  });

  test('writes its reasons in the Chinese catalog for FLOWER_LANG=zh', async () => {
    handler = reply(401, '');
    expect((await probeCredentials({ env: env({ FLOWER_LANG: 'zh' }) })).reason).toBe('HTTP 401 认证被拒绝');
  });
});

describe('probeModel', () => {
  test('prefers the haiku model, then ANTHROPIC_MODEL, then the fallback', () => {
    expect(probeModel({ ANTHROPIC_DEFAULT_HAIKU_MODEL: 'h', ANTHROPIC_MODEL: 'm' })).toEqual({
      model: 'h',
      fallback: false,
    });
    expect(probeModel({ ANTHROPIC_DEFAULT_HAIKU_MODEL: '', ANTHROPIC_MODEL: 'm' })).toEqual({
      model: 'm',
      fallback: false,
    });
    expect(probeModel({}, 'custom-fallback')).toEqual({ model: 'custom-fallback', fallback: true });
  });
});

describe('probeUrl', () => {
  test('appends /v1/messages to the base URL, adding https:// when the scheme is missing', () => {
    expect(probeUrl({})).toBe('https://api.anthropic.com/v1/messages');
    expect(probeUrl({ ANTHROPIC_BASE_URL: 'gw.example.com/' })).toBe('https://gw.example.com/v1/messages');
    expect(probeUrl({ ANTHROPIC_BASE_URL: 'http://localhost:8080' })).toBe(
      'http://localhost:8080/v1/messages',
    );
  });
});
