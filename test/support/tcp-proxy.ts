/**
 * A TCP relay on 127.0.0.1 in front of a server, whose {@link TcpProxy.cut} turns it into a black hole: the
 * connections stay open but nothing passes any more, and new ones are accepted and never answered — what a
 * process sees of its database when the network between them goes away (no reset, no error, silence).
 *
 * @module
 */
import { connect, createServer, type Socket } from 'node:net';

/** A running relay. */
export interface TcpProxy {
  /** The port it listens on. */
  readonly port: number;
  /** From now on nothing passes, either way, on old or new connections. */
  cut(): void;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Starts a relay to `127.0.0.1:targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets: Socket[] = [];
  let cut = false;
  const hold = (socket: Socket): void => {
    socket.pause();
    socket.on('error', () => undefined);
  };
  const server = createServer((client) => {
    sockets.push(client);
    client.on('error', () => undefined);
    if (cut) {
      hold(client);
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.push(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk) => {
      if (!cut) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!cut) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return {
    port: address.port,
    cut() {
      cut = true;
      for (const socket of sockets) hold(socket);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
