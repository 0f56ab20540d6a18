import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { closedPortUrl } from '../testing/closed-port.js';
import { endpoint, reachable } from './network-probe.js';

const servers: Server[] = [];

async function listen(): Promise<{ server: Server; port: number; received: () => string }> {
  let received = '';
  const server = createServer((socket) => {
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, received: () => received };
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('endpoint', () => {
  test.each([
    [{}, 'api.anthropic.com', 443],
    [{ ANTHROPIC_BASE_URL: '' }, 'api.anthropic.com', 443],
    [{ ANTHROPIC_BASE_URL: '   ' }, 'api.anthropic.com', 443],
    [{ ANTHROPIC_BASE_URL: 'https://gateway.example.com' }, 'gateway.example.com', 443],
    [{ ANTHROPIC_BASE_URL: 'http://gateway.example.com' }, 'gateway.example.com', 80],
    [{ ANTHROPIC_BASE_URL: 'http://127.0.0.1:8787/v1/' }, '127.0.0.1', 8787],
    [{ ANTHROPIC_BASE_URL: 'https://gw.example.com:8443/anthropic' }, 'gw.example.com', 8443],
    [{ ANTHROPIC_BASE_URL: 'gw.example.com' }, 'gw.example.com', 443],
    [{ ANTHROPIC_BASE_URL: 'localhost:9000' }, 'localhost', 9000],
    [{ ANTHROPIC_BASE_URL: 'HTTP://Upper.Example.com' }, 'upper.example.com', 80],
    [{ ANTHROPIC_BASE_URL: 'http://[::1]:9001' }, '::1', 9001],
  ])('reads %j as %s:%i', (env, host, port) => {
    expect(endpoint(env)).toEqual({ host, port });
  });

  test('returns an unparseable value as the host, so its probe fails instead of probing elsewhere', () => {
    expect(endpoint({ ANTHROPIC_BASE_URL: 'http://exa mple' })).toEqual({
      host: 'http://exa mple',
      port: 443,
    });
  });
});

describe('reachable', () => {
  test('is true for a listening port, connecting without sending a byte', async () => {
    const { server, port, received } = await listen();
    const closed = new Promise<void>((resolve) =>
      server.once('connection', (socket) => socket.once('close', () => resolve())),
    );
    expect(await reachable('127.0.0.1', port, 2)).toBe(true);
    await closed; // the probe closed its connection
    expect(received()).toBe('');
  });

  test('resolves a name before connecting', async () => {
    const { port } = await listen();
    expect(await reachable('localhost', port, 2)).toBe(true);
  });

  test('is false for a closed port', async () => {
    const { port } = new URL(await closedPortUrl());
    expect(await reachable('127.0.0.1', Number(port), 2)).toBe(false);
  });

  test('is false quickly for a name that does not resolve', async () => {
    const started = performance.now();
    expect(await reachable('flower-probe.invalid', 443, 3)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2500);
  });

  test.each([
    ['', 443],
    ['127.0.0.1', 0],
    ['127.0.0.1', 70_000],
    ['127.0.0.1', 80.5],
    ['127.0.0.1', Number.NaN],
  ])('is false, without throwing, for host %j port %d', async (host, port) => {
    expect(await reachable(host, port, 1)).toBe(false);
  });

  test('gives up when the timeout passes before the connection is made', async () => {
    const { port } = await listen();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Timers advance synchronously, before the event loop can complete the connect.
    const probe = reachable('127.0.0.1', port, 5);
    let settled = false;
    void probe.then(() => (settled = true));
    vi.advanceTimersByTime(4999);
    await Promise.resolve();
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await probe).toBe(false);
  });
});
