import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';

export interface HttpTimeouts {
  /** A client must send its whole request head within this. */
  headersTimeoutMs: number;
  /** ...and its whole request (head and body) within this. Responses (event streams) are not bounded by it. */
  requestTimeoutMs: number;
}

/**
 * The service's HTTP server, with timeouts that suit an API: Node's defaults let a client that sends an incomplete
 * head hold a connection for 60 s and a slow body for 5 min. Node checks these on an interval (30 s by default),
 * which is shortened so a timeout means what it says. Started before the app exists (`serveApp` attaches it), so
 * tests can learn their port first and build the service with its real PUBLIC_URL.
 */
export function createHttpServer(t: HttpTimeouts): Server {
  return createServer({
    // Node refuses a head timeout longer than the whole request's.
    headersTimeout: Math.min(t.headersTimeoutMs, t.requestTimeoutMs),
    requestTimeout: t.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, t.headersTimeoutMs),
  });
}

/** Hands the server's requests to the app (Node's request stays reachable as `c.env.incoming`). */
export function serveApp(server: Server, app: Hono): void {
  server.on('request', getRequestListener(app.fetch));
}

/** Listens and resolves with the bound port (port 0 picks a free one). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
