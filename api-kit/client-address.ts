import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import { nodeRequest } from './node-request.js';

/** How the client address of a request is found: by the socket peer, or through this many trusted proxies. */
export type ClientAddress = (c: Context) => string;

/**
 * The client address for rate limits and sign-in throttling. With `trustedHops` 0 (the default) it is the socket
 * peer and X-Forwarded-For is never read, so a client cannot pick its own address. Behind N proxies (TRUST_PROXY=N)
 * each proxy appends the address it saw to X-Forwarded-For, so the client is the N-th address from the right of
 * [...X-Forwarded-For, peer]; the entries left of it were written by the client and are not believed. A missing or
 * malformed entry falls back to the nearest address a trusted proxy vouched for.
 *
 * @example
 * clientAddressVia(1) // peer 10.0.0.2 (the proxy), X-Forwarded-For "1.2.3.4, 203.0.113.9" -> "203.0.113.9"
 */
export function clientAddressVia(trustedHops: number): ClientAddress {
  if (trustedHops <= 0) return peerAddress;
  return (c) => {
    const peer = peerAddress(c);
    const forwarded = nodeRequest(c)?.headers['x-forwarded-for'] ?? c.req.header('x-forwarded-for');
    const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',');
    let client = peer;
    for (let i = 1; i <= trustedHops && i <= hops.length; i++) {
      const entry = (hops[hops.length - i] as string).trim();
      if (!ipaddr.isValid(entry)) break;
      client = ipaddr.process(entry).toString();
    }
    return client;
  };
}

/** The socket peer, read straight from Node's socket as @hono/node-server's getConnInfo does. */
function peerAddress(c: Context): string {
  return nodeRequest(c)?.socket.remoteAddress ?? 'unknown'; // app.request() in tests has no socket
}
