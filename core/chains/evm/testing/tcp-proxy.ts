import type { AddressInfo } from 'node:net';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  url: string;
  port: number;
  /** Closes the port: connections are refused, as when a node is down. */
  down(): Promise<void>;
  /** Accepts connections and never answers, as when a node hangs: only client timeouts end them. */
  hang(): Promise<void>;
  /** Forwards again, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real TCP hop between the service and a node, so tests can take the RPC down and bring it back on the same URL
 * while the node itself (and its chain) lives on.
 */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let hanging = false;
  let server: Server;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => client.destroy());
      if (hanging) return;
      const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  };
  const stop = async () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    down: stop,
    async hang() {
      hanging = true;
      for (const s of sockets) s.destroy();
      if (!server.listening) await listen();
    },
    async up() {
      hanging = false;
      if (!server.listening) await listen();
    },
    close: async () => {
      if (server.listening) await stop();
    },
  };
}
