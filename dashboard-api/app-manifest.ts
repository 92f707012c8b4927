import { deflateSync } from 'node:zlib';
import type { Hono } from 'hono';
import { pngChunk, SIGNATURE } from '../core/qr/png.js';

/**
 * The dashboard as an installed web app (the point of sale on a counter's tablet or phone): its manifest, which
 * opens at /dashboard/pos (the first merchant's point of sale), and its icons, drawn here as PNGs (a blue square
 * with a white till receipt) so no binary file has to be kept beside the source.
 */
export const manifest = {
  name: 'Payments point of sale',
  short_name: 'Point of sale',
  start_url: '/dashboard/pos',
  scope: '/dashboard/',
  display: 'standalone',
  background_color: '#1d4ed8',
  theme_color: '#1d4ed8',
  icons: [192, 512].map((size) => ({
    src: `/dashboard/icons/icon-${size}.png`,
    sizes: `${size}x${size}`,
    type: 'image/png',
    purpose: 'any maskable',
  })),
};

/** An RGB PNG of `size` px: blue, with a white rectangle in the safe middle of a maskable icon. */
export function iconPng(size: number): Buffer {
  const stride = size * 3 + 1;
  const raw = Buffer.alloc(size * stride);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inside = x > size * 0.34 && x < size * 0.66 && y > size * 0.28 && y < size * 0.72;
      const line =
        inside && y > size * 0.36 && y < size * 0.64 && Math.floor((y - size * 0.36) / (size * 0.06)) % 2 === 1;
      const o = y * stride + 1 + x * 3;
      const [r, g, b] = inside && !line ? [255, 255, 255] : [29, 78, 216];
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export function registerAppManifest(app: Hono): void {
  const icons = new Map([192, 512].map((s) => [`icon-${s}.png`, iconPng(s)]));
  app.get('/dashboard/manifest.webmanifest', (c) =>
    c.body(JSON.stringify(manifest), 200, {
      'content-type': 'application/manifest+json; charset=utf-8',
      'cache-control': 'public, max-age=300',
    }),
  );
  app.get('/dashboard/icons/:file', (c) => {
    const png = icons.get(c.req.param('file'));
    if (!png) return c.notFound();
    return c.body(new Uint8Array(png), 200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400' });
  });
}
