import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { staticFiles } from './static-files.js';

describe('staticFiles gzip', () => {
  const dir = mkdtempSync(join(tmpdir(), 'static-'));
  const js = Buffer.from('export const x = () => 1;\n'.repeat(100));
  writeFileSync(join(dir, 'a.js'), js);
  // What the build writes beside a file (any valid gzip of its bytes; the build's is Zopfli's).
  const built = gzipSync(js, { level: 1 });
  writeFileSync(join(dir, 'a.js.gz'), built);
  writeFileSync(join(dir, 'b.js'), js);
  // A leftover of other bytes: never sent for b.js.
  writeFileSync(join(dir, 'b.js.gz'), gzipSync(Buffer.from('something else')));
  const files = staticFiles(dir, { maxAge: 0 });
  const app = new Hono().get('/*', async (c) => (await files(c, c.req.path.slice(1))) ?? c.notFound());
  const get = async (path: string) => {
    const res = await app.request(path, { headers: { 'accept-encoding': 'gzip' } });
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  };

  it("sends the build's gzip when it is of the file's bytes", async () => {
    const { res, body } = await get('/a.js');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(body.equals(built)).toBe(true);
  });

  it('falls back to its own gzip when the .gz beside the file is of other bytes', async () => {
    const { res, body } = await get('/b.js');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(body).equals(js)).toBe(true);
  });

  it('never serves the .gz files themselves', async () => {
    expect((await get('/a.js.gz')).res.status).toBe(404);
  });
});
