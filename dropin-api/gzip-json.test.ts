import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../server/testing/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

/** A raw HTTP call (no client that decodes behind our back): status, headers and the bytes as sent. */
function raw(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(`${t.url}${path}`, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) });
        res.on('end', done);
        // The event stream never ends by itself: the first event is enough.
        if (path.endsWith('/events'))
          res.once('data', () => {
            done();
            req.destroy();
          });
      });
      req.on('error', reject);
      req.end(init.body === undefined ? undefined : JSON.stringify(init.body));
    },
  );
}

const session = (encoding?: string) =>
  raw('/api/dropin/v1/sessions', {
    method: 'POST',
    body: { amount: 25, crypto_currency: 'BTC', customer: { email: 'ann@example.com' } },
    headers: {
      authorization: `Bearer ${t.merchant.public_key}`,
      'content-type': 'application/json',
      ...(encoding ? { 'accept-encoding': encoding } : {}),
    },
  });

describe('gzipped JSON answers', () => {
  it('sends JSON gzipped to a client that accepts gzip, with its length and Vary', async () => {
    const r = await session('gzip, deflate');
    expect(r.status).toBe(201);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(r.headers.vary).toMatch(/Accept-Encoding/i);
    const json = JSON.parse(gunzipSync(r.body).toString('utf8'));
    expect(json.data.payment.pay_currency).toBe('BTC');
    // The point of it: the QR answer is well under its plain size.
    expect(r.body.length).toBeLessThan(gunzipSync(r.body).length / 1.5);
  });

  it('sends plain JSON to a client that does not accept gzip', async () => {
    const r = await session();
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(r.body.toString('utf8')).data.payment.pay_currency).toBe('BTC');
  });

  it('never compresses the event stream, so each event arrives at once', async () => {
    const created = JSON.parse((await session()).body.toString('utf8'));
    const r = await raw(`/api/dropin/v1/sessions/${created.data.session_token}/events`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.toString('utf8')).toContain('event: payment');
  });
});
