import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';

export interface HttpTimeouts {
  /** A client must send its whole request head within this. */
  headersTimeoutMs: number;
  /** ...and its whole request (head and body) within this. Responses (event streams) are not bounded by it. */
  requestTimeoutMs: number;
  /** An idle connection stays open this long for the client's next request. */
  keepAliveTimeoutMs: number;
}

/**
 * The service's HTTP server, with timeouts that suit an API: Node's defaults let a client that sends an incomplete
 * head hold a connection for 60 s and a slow body for 5 min, and close an idle connection after 5 s. Node checks these on an interval (30 s by default),
 * which is shortened so a timeout means what it says. Started before the app exists (`serveApp` attaches it), so
 * tests can learn their port first and build the service with its real PUBLIC_URL.
 */
export function createHttpServer(t: HttpTimeouts): Server {
  return createServer({
    // Node refuses a head timeout longer than the whole request's.
    headersTimeout: Math.min(t.headersTimeoutMs, t.requestTimeoutMs),
    requestTimeout: t.requestTimeoutMs,
    // Node's default, 5 s, closes the connection of a shopper who looked at the page a little longer before the
    // tap, which then pays a new connection (a round trip, two with TLS); and it is shorter than the idle timeout
    // of the proxies in front of a service (60 s on the common load balancers), which then send a request down a
    // connection this end is closing. Idle time is not counted against the two timeouts above: since Node 18 they
    // run from a request's first byte (server/http-server.test.ts), so the head timeout stays short against slow
    // clients, unlike the old rule of setting it above the keep-alive.
    keepAliveTimeout: t.keepAliveTimeoutMs,
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
