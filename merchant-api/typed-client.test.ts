import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantClient, paymentStatus, payOrder } from '../examples/create-payment.js';
import { API_TYPES_PATH, generateApiTypes } from '../scripts/generate-api-types.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('the typed client (openapi-typescript + openapi-fetch)', () => {
  it('has its committed types in step with the document (npm run openapi:types)', async () => {
    expect(readFileSync(API_TYPES_PATH, 'utf8'), 'examples/api-types.ts is stale: run npm run openapi:types').toBe(
      await generateApiTypes(),
    );
  });

  it('reads GET /openapi.json through its generated type, without a cast', async () => {
    const { data } = await merchantClient(t.url, t.merchant.secret_key).GET('/openapi.json');
    expect(data?.openapi).toBe('3.1.0');
    expect(data?.info.title).toContain('merchant API');
    expect(Object.keys(data?.paths ?? {})).toContain('/payments/{payment_id}');
  });

  it('runs the example against the service: creates a payment once per order and reads its status', async () => {
    const client = merchantClient(t.url, t.merchant.secret_key);
    const order = { id: 'T-1', usd: 42, currency: 'ltc', email: 'typed@example.com' };
    const p = await payOrder(client, order);
    expect(p.payment.payment_status).toBe('waiting');
    expect(p.blockchain.pay_currency).toBe('LTC');
    // The same order again: the Idempotency-Key replays the first payment.
    expect((await payOrder(client, order)).payment.payment_id).toBe(p.payment.payment_id);
    const s = await paymentStatus(client, p.payment.payment_id);
    expect(s).toMatchObject({ payment_id: p.payment.payment_id, payment_status: 'waiting', order_id: 'T-1' });
    await expect(paymentStatus(client, 'pay_nope')).rejects.toThrow('Payment not found');
    await expect(payOrder(client, { ...order, id: 'T-2', currency: 'nope' })).rejects.toThrow('(422)');
  });
});
