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

export interface TcpProxyOptions {
  /**
   * A network's round trip, added in full: each byte reaches the other side half of it later, and a new connection
   * forwards nothing until one whole round trip after it was accepted (the TCP handshake a loopback connection
   * skips). Browsers' own latency emulation delays neither preflights nor new connections; this delays both.
   * @default 0
   */
  roundTripMs?: number;
}

/**
 * A real TCP hop between the service and a node, so tests can take the RPC down and bring it back on the same URL
 * while the node itself (and its chain) lives on; with `roundTripMs`, a slow network in front of a service.
 */
export async function startTcpProxy(targetPort: number, options: TcpProxyOptions = {}): Promise<TcpProxy> {
  const rtt = options.roundTripMs ?? 0;
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
      // With a delay, what is still on its way when one side closes arrives first.
      const later = (f: () => void) => (rtt === 0 ? f() : setTimeout(f, 2 * rtt));
      client.on('close', () => later(() => upstream.destroy()));
      upstream.on('close', () => later(() => client.destroy()));
      if (rtt === 0) {
        client.pipe(upstream);
        upstream.pipe(client);
      } else {
        const opened = Date.now();
        delayed(client, upstream, () => Math.max(Date.now(), opened + rtt) + rtt / 2);
        delayed(upstream, client, () => Date.now() + rtt / 2);
      }
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

/**
 * Forwards `from` to `to`, each chunk (and the end) at the time `due()` gives when it arrives, never before the
 * chunk ahead of it: one queue per direction, so the bytes keep their order.
 */
function delayed(from: Socket, to: Socket, due: () => number): void {
  const queue: { at: number; chunk: Buffer | null }[] = [];
  let waiting = false;
  const pump = () => {
    waiting = false;
    for (let next = queue[0]; next && next.at <= Date.now(); next = queue[0]) {
      queue.shift();
      if (to.destroyed) return;
      if (next.chunk) to.write(next.chunk);
      else to.end();
    }
    if (queue[0]) wait(queue[0].at);
  };
  const wait = (at: number) => {
    waiting = true;
    setTimeout(pump, at - Date.now());
  };
  const push = (chunk: Buffer | null) => {
    queue.push({ at: Math.max(queue.at(-1)?.at ?? 0, due()), chunk });
    if (!waiting) wait(queue[0]?.at ?? 0);
  };
  from.on('data', (chunk: Buffer) => push(chunk));
  from.on('end', () => push(null));
}
