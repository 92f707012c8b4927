import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The client address for rate limits: the socket peer (no proxy headers are trusted by default). */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // app.request() in tests has no socket
  }
}
