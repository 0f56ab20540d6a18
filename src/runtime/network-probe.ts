/**
 * The free network probe (docs/resilience.md): is the Messages API endpoint reachable at all? A DNS lookup
 * and a TCP connect to the host and port of `ANTHROPIC_BASE_URL`, closed at once — no HTTP, no credentials,
 * no cost. A paid probe every 15 s while offline would itself be a fault, and a gateway must be probed
 * itself, not api.anthropic.com behind it.
 *
 * @module
 */
import { connect, type Socket } from 'node:net';
import { processEnvironment, type Env } from '../config/process-environment.js';

/** Where the Messages API lives when `ANTHROPIC_BASE_URL` is not set. */
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** A host and TCP port to probe. */
export interface Endpoint {
  host: string;
  port: number;
}

/**
 * The host and port behind `ANTHROPIC_BASE_URL` (default {@link DEFAULT_BASE_URL}). A value without a
 * scheme gets `https://`; the port is the explicit one, else 80 for `http`, else 443. An IPv6 literal comes
 * back without brackets. A value that is not a URL even with a scheme added comes back as the host itself
 * (port 443), so the probe fails visibly instead of probing some other machine.
 */
export function endpoint(env: Env = processEnvironment()): Endpoint {
  const configured = (env['ANTHROPIC_BASE_URL'] ?? '').trim();
  const raw = configured === '' ? DEFAULT_BASE_URL : configured;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { host: raw, port: 443 };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  return { host, port };
}

/**
 * True when `host` resolves and accepts a TCP connection on `port` within `timeoutS` seconds (one timeout
 * for lookup and connect together). The connection is closed at once. Never throws: any error — a bad
 * host or port included — means "down".
 */
export function reachable(host: string, port: number, timeoutS = 5): Promise<boolean> {
  if (host.trim() === '' || !Number.isInteger(port) || port < 1 || port > 65_535) {
    return Promise.resolve(false);
  }
  return new Promise<boolean>((resolve) => {
    let settled = false;
    let socket: Socket | null = null;
    const finish = (up: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.destroy();
      resolve(up);
    };
    const timer = setTimeout(() => finish(false), Math.max(0, timeoutS) * 1000);
    try {
      // `connect` does the DNS lookup itself, and destroying the socket abandons a lookup still in flight.
      socket = connect({ host, port });
      socket.once('connect', () => finish(true));
      socket.once('error', () => finish(false));
      socket.once('close', () => finish(false));
    } catch {
      finish(false);
    }
  });
}
