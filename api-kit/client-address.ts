import type { Context } from 'hono';
import { nodeRequest } from './node-request.js';

/**
 * The client address for rate limits: the socket peer (no proxy headers are trusted by default). Read straight
 * from Node's socket, as @hono/node-server's getConnInfo does, without building its info object per request.
 */
export function clientAddress(c: Context): string {
  return nodeRequest(c)?.socket.remoteAddress ?? 'unknown'; // app.request() in tests has no socket
}
