import type { MiddlewareHandler } from 'hono';
import { requestHeader } from '../api-kit/node-request.js';

const ALLOW_HEADERS = 'authorization, content-type, last-event-id';
const ALLOW_METHODS = 'GET, POST, OPTIONS';

/**
 * CORS for the drop-in routes. A preflight carries no key, so it is answered for any origin; the real request is
 * then checked against the merchant's allowed origins (context.ts) and refused with 403. The refusal itself
 * stays readable by the page, so the popup can say why instead of a bare network error.
 */
export function dropinCors(): MiddlewareHandler {
  return async (c, next) => {
    const origin = requestHeader(c, 'origin');
    if (c.req.method === 'OPTIONS' && origin) {
      return c.body(null, 204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '600',
        vary: 'Origin',
      });
    }
    await next();
    if (origin) {
      c.res.headers.set('access-control-allow-origin', origin);
      c.res.headers.set('access-control-expose-headers', 'retry-after, x-request-id');
      c.res.headers.append('vary', 'Origin');
    }
  };
}
