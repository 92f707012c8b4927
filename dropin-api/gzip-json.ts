import { gzipSync } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

/** Below this, gzip's own header costs more than it saves. */
const MIN_BYTES = 512;

/**
 * JSON answers go out gzipped at level 9, as the drop-in's budget (15 KB gzipped to the QR) counts them: a
 * whole body at once compresses a little better than a stream, and these bodies are small. Anything else (the
 * event stream, above all, which must reach the popup event by event) passes untouched.
 */
export function gzipJson(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (
      !res.headers.get('content-type')?.startsWith('application/json') ||
      res.headers.has('content-encoding') ||
      !/\bgzip\b/.test(c.req.header('accept-encoding') ?? '')
    ) {
      return;
    }
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.append('vary', 'Accept-Encoding');
    if (body.length < MIN_BYTES) {
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    const gz = gzipSync(body, { level: 9 });
    headers.set('content-encoding', 'gzip');
    headers.set('content-length', String(gz.length));
    c.res = new Response(gz, { status: res.status, headers });
  };
}
