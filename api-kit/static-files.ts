import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { AppError } from '../core/errors.js';

// A Map: the extension comes from the request's path.
const TYPES = new Map([
  ['.js', 'text/javascript; charset=utf-8'],
  ['.mjs', 'text/javascript; charset=utf-8'],
  ['.ts', 'text/plain; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.html', 'text/html; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.json', 'application/json; charset=utf-8'],
  ['.map', 'application/json; charset=utf-8'],
]);

interface Cached {
  mtimeMs: number;
  body: Buffer;
  gzip: Buffer | null;
}

/**
 * The gzip of `body` that the build wrote next to its file (`checkout.js.gz`: vite.config.ts, scripts/gzip-best.ts), when
 * it is of these very bytes (its trailer's CRC-32 and length match): a build-time gzip is smaller than zlib's.
 */
async function prebuiltGzip(file: string, body: Buffer): Promise<Buffer | null> {
  let gz: Buffer;
  try {
    gz = await readFile(`${file}.gz`);
  } catch {
    return null;
  }
  const ok =
    gz.length > 18 &&
    gz.readUInt32LE(gz.length - 8) === crc32(body) >>> 0 &&
    gz.readUInt32LE(gz.length - 4) === body.length >>> 0;
  return ok ? gz : null;
}

/**
 * A URL path as a file path: percent-escapes decoded, or a 400 when they are malformed (`%`, `%E0%A4%A`, `%ff`),
 * which `decodeURIComponent` would throw as a plain error.
 */
export function decodeUrlPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed percent-encoding in the path');
  }
}

/**
 * Serves files under `root` (public/) with their gzip computed once per file version (or the build's own, see
 * prebuiltGzip), so the drop-in script goes out compressed without compressing on every request. `urlPath` is the
 * request's path below `root`, still percent-encoded. Paths that escape `root` are 404.
 */
export function staticFiles(root: string, opts: { maxAge: number }) {
  const cache = new Map<string, Cached>();
  return async (c: Context, urlPath: string): Promise<Response | null> => {
    const file = normalize(join(root, decodeUrlPath(urlPath)));
    if (!file.startsWith(root + sep)) return null;
    const type = TYPES.get(extname(file));
    if (!type) return null;
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(file);
    } catch {
      return null;
    }
    if (!info.isFile()) return null;
    let entry = cache.get(file);
    if (!entry || entry.mtimeMs !== info.mtimeMs) {
      const body = await readFile(file);
      entry = {
        mtimeMs: info.mtimeMs,
        body,
        gzip:
          body.length > 512 && !type.startsWith('image/png')
            ? ((await prebuiltGzip(file, body)) ?? gzipSync(body, { level: 9 }))
            : null,
      };
      cache.set(file, entry);
    }
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': `public, max-age=${opts.maxAge}`,
      'access-control-allow-origin': '*',
      vary: 'Accept-Encoding',
    };
    const gz = entry.gzip !== null && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    if (gz) headers['content-encoding'] = 'gzip';
    const body = gz && entry.gzip ? entry.gzip : entry.body;
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(new Uint8Array(body), 200, headers);
  };
}
