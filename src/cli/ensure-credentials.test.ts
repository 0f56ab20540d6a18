import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { deriveConfig, type FlowerConfig } from '../config/load-config.js';
import { isFlowerError } from '../errors.js';
import type { SetupReason, SetupResult } from './commands/setup.js';
import { ensureCredentials, type SetupRunner } from './ensure-credentials.js';

let server: Server;
let baseUrl: string;
let requests: IncomingMessage['headers'][];
/** Status per API key, so a test can make the first key fail and the reconfigured one pass. */
let statusFor: (apiKey: string) => number;
let lines: string[];
const write = (line: string) => lines.push(line);

beforeEach(async () => {
  requests = [];
  lines = [];
  statusFor = () => 200;
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests.push(request.headers);
      response.writeHead(statusFor(String(request.headers['x-api-key'] ?? ''))).end('{"error":{}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const configWith = (env: Record<string, string>): FlowerConfig =>
  deriveConfig({ env: { HOME: '/home/u', ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_MODEL: 'm', ...env } });

/** A setup dialogue stand-in: records each reason and answers with the next scripted result. */
function setupScript(results: Array<(config: FlowerConfig) => SetupResult>): {
  setup: SetupRunner;
  reasons: SetupReason[];
} {
  const reasons: SetupReason[] = [];
  return {
    reasons,
    setup: ({ config, reason }) => {
      reasons.push(reason);
      const next = results.shift();
      if (!next) return Promise.reject(new Error('setup opened more often than scripted'));
      return Promise.resolve(next(config));
    },
  };
}
const savedKey =
  (key: string) =>
  (config: FlowerConfig): SetupResult => ({
    completed: true,
    file: '/home/u/.config/flower/.env',
    config: deriveConfig({ env: { ...config.env, ANTHROPIC_API_KEY: key } }),
  });
const notDone = (config: FlowerConfig): SetupResult => ({ completed: false, config });

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error: unknown = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!isFlowerError(error)) throw new Error(`expected a FlowerError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe('ensureCredentials', () => {
  test('without a terminal, passes present credentials through without probing', async () => {
    const config = configWith({ ANTHROPIC_API_KEY: 'k' });
    expect(await ensureCredentials({ config, isTty: false, write })).toBe(config);
    expect(requests).toEqual([]);
    expect(lines).toEqual([]);
  });

  test('without a terminal, stops on missing credentials with the four-line message', async () => {
    const { setup, reasons } = setupScript([]);
    const error = await rejection(ensureCredentials({ config: configWith({}), isTty: false, write, setup }));
    expect(error.code).toBe('CREDENTIALS_MISSING');
    expect(error.message.split('\n')).toHaveLength(4);
    expect(error.message).toContain('/home/u/.config/flower/.env');
    expect(reasons).toEqual([]);
  });

  test('on a terminal, opens setup for a first-time user and then probes the new credentials', async () => {
    const { setup, reasons } = setupScript([savedKey('sk-ant-api03-new')]);
    const config = await ensureCredentials({ config: configWith({}), isTty: true, write, setup });
    expect(reasons).toEqual(['setup.reason.first']);
    expect(config.env['ANTHROPIC_API_KEY']).toBe('sk-ant-api03-new');
    expect(requests.map((headers) => headers['x-api-key'])).toEqual(['sk-ant-api03-new']);
    expect(lines).toEqual(['- Checking credentials…', '+ credentials ok']);
  });

  test('on a terminal, stops with the four-line message when setup does not complete', async () => {
    const { setup } = setupScript([notDone]);
    const error = await rejection(ensureCredentials({ config: configWith({}), isTty: true, write, setup }));
    expect(error.code).toBe('CREDENTIALS_MISSING');
    expect(error.message).toMatch(/^Missing credentials/);
  });

  test('skips the probe for FLOWER_NO_PROBE and when the caller turns it off', async () => {
    await ensureCredentials({
      config: configWith({ ANTHROPIC_API_KEY: 'k', FLOWER_NO_PROBE: '1' }),
      isTty: true,
      write,
    });
    await ensureCredentials({
      config: configWith({ ANTHROPIC_API_KEY: 'k' }),
      isTty: true,
      write,
      probe: false,
    });
    expect(requests).toEqual([]);
  });

  test('does not probe an OAuth token and says it is let through unverified', async () => {
    await ensureCredentials({
      config: configWith({ CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-x' }),
      isTty: true,
      write,
    });
    expect(requests).toEqual([]);
    expect(lines).toEqual(['  Claude Code OAuth token: not verified, letting it through']);
  });

  test('after a rejection, reconfigures once and continues when the second probe passes', async () => {
    statusFor = (apiKey) => (apiKey === 'sk-ant-api03-good' ? 200 : 401);
    const { setup, reasons } = setupScript([savedKey('sk-ant-api03-good')]);
    const config = await ensureCredentials({
      config: configWith({ ANTHROPIC_API_KEY: 'bad' }),
      isTty: true,
      write,
      setup,
    });
    expect(reasons).toEqual(['setup.reason.probe']);
    expect(config.env['ANTHROPIC_API_KEY']).toBe('sk-ant-api03-good');
    expect(lines).toEqual([
      '- Checking credentials…',
      '! Credentials rejected: HTTP 401 authentication rejected {"error":{}}',
      '- Checking credentials…',
      '+ credentials ok',
    ]);
  });

  test('stops after the second rejection', async () => {
    statusFor = () => 403;
    const { setup, reasons } = setupScript([savedKey('still-bad')]);
    const error = await rejection(
      ensureCredentials({ config: configWith({ ANTHROPIC_API_KEY: 'bad' }), isTty: true, write, setup }),
    );
    expect(error).toEqual({
      code: 'CREDENTIALS_REJECTED',
      message: 'Credentials rejected and cannot configure interactively. Run `flower setup`.',
    });
    expect(reasons).toHaveLength(1);
    expect(requests).toHaveLength(2);
  });

  test('stops when the user abandons reconfiguration of a wrong URL or model', async () => {
    statusFor = () => 404;
    const { setup } = setupScript([notDone]);
    const error = await rejection(
      ensureCredentials({ config: configWith({ ANTHROPIC_API_KEY: 'k' }), isTty: true, write, setup }),
    );
    expect(error).toEqual({
      code: 'CREDENTIALS_REJECTED',
      message: 'Wrong gateway URL or model name and cannot configure interactively. Run `flower setup`.',
    });
    expect(lines[1]).toBe(
      '! Wrong gateway URL or model name: HTTP 404 wrong gateway URL or model name {"error":{}}',
    );
  });

  test('never forces reconfiguration for network trouble', async () => {
    statusFor = () => 502;
    const { setup, reasons } = setupScript([]);
    const config = configWith({ ANTHROPIC_API_KEY: 'k' });
    expect(await ensureCredentials({ config, isTty: true, write, setup })).toBe(config);
    expect(reasons).toEqual([]);
    expect(lines).toEqual([
      '- Checking credentials…',
      '  (Could not reach the server: HTTP 502 server error (not your credentials) — treating it as a network problem and starting anyway)',
    ]);
  });

  test('answers the checking line with "credentials ok" when the probe passes', async () => {
    const config = configWith({ ANTHROPIC_API_KEY: 'k' });
    expect(await ensureCredentials({ config, isTty: true, write })).toBe(config);
    expect(lines).toEqual(['- Checking credentials…', '+ credentials ok']);
  });
});
