import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * A request header, read from Node's request when there is one. Hono's `c.req.header()` makes the Node server
 * adapter build a whole fetch `Headers` object first (about 2 us per request, measured on GET /payments/{id});
 * Node's own header object is already there, lower-cased and with repeats joined by ", " like `Headers`.
 * Falls back to Hono for requests without a Node request (app.request() in tests).
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const v = incoming.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}
