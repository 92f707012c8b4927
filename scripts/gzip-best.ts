import { gzipAsync } from '@gfx/zopfli';

/**
 * Gzip as small as it gets, for files compressed once at build time (the drop-in's scripts): Google's Zopfli
 * (WebAssembly build), about 3% smaller than zlib's level 9 and still plain gzip for every browser. Seconds of CPU
 * per megabyte, so never on a request path. Used by vite.config.ts and the drop-in benchmark (sizes as served).
 */
export async function gzipBest(data: Uint8Array): Promise<Buffer> {
  return Buffer.from(await gzipAsync(data, { numiterations: 15 }));
}
