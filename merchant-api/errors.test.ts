import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/log.js';
import { deactivateKey, rotateKey } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

const logLines: string[] = [];
let t: TestService;
beforeAll(async () => {
  t = await startTestService({
    env: { BODY_LIMIT_BYTES: '2048' },
    overrides: { logger: createLogger('info', (l) => logLines.push(l)) },
  });
});
afterAll(async () => {
  await t?.close();
});

function expectEnvelope(r: { json: { success: boolean; message: string; code: string; request_id: string } }) {
  expect(r.json.success).toBe(false);
  expect(typeof r.json.message).toBe('string');
  expect(r.json.message.length).toBeGreaterThan(0);
  expect(typeof r.json.code).toBe('string');
  expect(r.json.request_id).toMatch(/^req_/);
}

const order = { amount: 100, currency: 'btc', email: 'ann@example.com' };

describe('auth (401)', () => {
  it('refuses a missing, unknown, public or deactivated key', async () => {
    const missing = await t.api('/api/v1/currencies', { key: null });
    expect(missing.status).toBe(401);
    expectEnvelope(missing);
    const unknown = await t.api('/api/v1/currencies', { key: 'sk_test_nope' });
    expect(unknown.status).toBe(401);
    const dk = await t.api('/api/v1/currencies', { key: t.merchant.public_key });
    expect(dk.status).toBe(401);
    expect(dk.json.message).toMatch(/dropin/);

    // Key writes made by the service itself (as the dashboard will) pass its key cache: they apply at once.
    const { db, clock, keys } = t.service.deps;
    const fresh = await rotateKey(db, clock, t.merchant.merchant_id, 'secret', keys);
    expect((await t.api('/api/v1/currencies', { key: fresh })).status).toBe(200);
    expect((await t.api('/api/v1/currencies', { key: t.merchant.secret_key })).status).toBe(401); // rotated away
    await deactivateKey(db, clock, fresh, keys);
    expect((await t.api('/api/v1/currencies', { key: fresh })).status).toBe(401);
    t.merchant.secret_key = await rotateKey(db, clock, t.merchant.merchant_id, 'secret', keys);
  });

  it('stores keys only as hashes', async () => {
    const rows = await t.service.deps.db.selectFrom('api_keys').selectAll().execute();
    for (const r of rows) {
      expect(r.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(r)).not.toContain(t.merchant.secret_key.slice(12));
    }
  });
});

describe('request errors', () => {
  it('400 on malformed JSON', async () => {
    const r = await t.api('/api/v1/payments', { body: '{"amount": 1,' });
    expect(r.status).toBe(400);
    expectEnvelope(r);
  });
  it('400 on a JSON body that is not an object', async () => {
    expect((await t.api('/api/v1/payments', { body: '[1,2]' })).status).toBe(400);
  });
  it('415 on a non-JSON POST', async () => {
    const r = await t.api('/api/v1/payments', {
      body: 'amount=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(415);
    expectEnvelope(r);
  });
  it('413 over the body limit', async () => {
    const r = await t.api('/api/v1/payments', { body: { ...order, order_description: 'x'.repeat(4000) } });
    expect(r.status).toBe(413);
    expectEnvelope(r);
  });
  it('404 on an unknown route and a missing payment', async () => {
    const a = await t.api('/api/v1/nothing-here');
    expect(a.status).toBe(404);
    expectEnvelope(a);
    const b = await t.api('/nowhere', { key: null });
    expect(b.status).toBe(404);
    expectEnvelope(b);
    const c = await t.api('/api/v1/payments/pay_unknown');
    expect(c.status).toBe(404);
  });
  it('405 on a wrong method', async () => {
    const r = await t.api('/api/v1/currencies', { method: 'DELETE' });
    expect(r.status).toBe(405);
    expectEnvelope(r);
  });
  it('422 on bad query parameters', async () => {
    const r = await t.api('/api/v1/estimate?amount=abc&currency=btc');
    expect(r.status).toBe(422);
    expect(r.json.errors.amount).toBeDefined();
  });
});

describe('rate limit (429)', () => {
  it('limits per key with Retry-After', async () => {
    const limitedService = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '5' } });
    try {
      let limited: Awaited<ReturnType<TestService['api']>> | undefined;
      let okCount = 0;
      for (let i = 0; i < 20 && !limited; i++) {
        const r = await limitedService.api('/api/v1/currencies');
        if (r.status === 429) limited = r;
        else okCount += 1;
      }
      expect(okCount).toBeGreaterThanOrEqual(5);
      expect(limited?.status).toBe(429);
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      if (limited) expectEnvelope(limited);
    } finally {
      await limitedService.close();
    }
  });
});

describe('500', () => {
  it('answers a generic message and logs the detail, without the key', async () => {
    // A real failure: the store goes away under the running app.
    await t.service.store.db.destroy();
    const r = await t.api('/api/v1/payments/pay_x');
    expect(r.status).toBe(500);
    expectEnvelope(r);
    expect(r.json.message).not.toMatch(/sqlite|destroy|driver/i);
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
    expect(logged?.error?.message).toBeTruthy();
    expect(logLines.join('\n')).not.toContain(t.merchant.secret_key);
  });
});
