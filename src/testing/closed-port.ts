/**
 * A URL on which nothing listens, to test "connection refused" (the binary retries it like any network
 * fault).
 *
 * @module
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * `http://127.0.0.1:<port>` for a port that was free a moment ago: binds port 0, notes the port the system
 * picked, and closes it again. Another process could take the port in between, which on a test machine is
 * unlikely enough; a fixed "well-known closed" port would not be.
 */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return `http://127.0.0.1:${port}`;
}
