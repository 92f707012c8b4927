import { request } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { document } from '../server/testing/openapi-check.js';
import { operations } from './openapi/document.js';

/**
 * The rules the OpenAPI document states are the service's own, so a generated client or a validating proxy refuses
 * what the service refuses: the amount range, https URLs, `Allow` on 405, a body on routes that take none, HEAD,
 * OPTIONS and unknown paths. Every answer here is also checked against the document by the harness.
 */

let t: TestService;
let deliveryId: string;
beforeAll(async () => {
  t = await startTestService({ webhookUrl: 'https://hooks.shop.test/crypto' });
  const test = await t.api('/api/v1/webhook-deliveries/test', { method: 'POST' });
  expect(test.status, test.text).toBe(202);
  deliveryId = test.json.data.delivery_id;
});
afterAll(async () => {
  await t?.close();
});

type Doc = {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: object }[] }>>;
  components: { responses: Record<string, { description: string }> };
};
const doc = document as unknown as Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...document, $id: 'doc' });

const order = { amount: 25, currency: 'btc', email: 'rules@example.com' };

/** A documented path with real ids in it. */
const concrete = (template: string, refundId = 'rfd_nope') =>
  template.replace('{payment_id}', 'pay_nope').replace('{delivery_id}', deliveryId).replace('{refund_id}', refundId);

/** A refund awaiting its address, of a paid sandbox payment: what cancelling takes. */
async function freshRefund(): Promise<string> {
  const p = await t.api('/api/v1/payments', { body: { amount: 10, currency: 'btc', email: 'a@example.com' } });
  const { pay_address: address, pay_amount: amount } = p.json.data.blockchain;
  expect((await t.api('/api/v1/sandbox/transfers', { body: { currency: 'btc', address, amount } })).status).toBe(201);
  expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } })).status).toBe(200);
  const r = await t.api(`/api/v1/payments/${p.json.data.payment.payment_id}/refunds`, { body: {} });
  expect(r.status, r.text).toBe(201);
  return r.json.data.refund_id;
}

/** A partially paid payment's id (half of it paid on the sandbox chain), for accepting it as paid. */
async function partlyPaid(): Promise<string> {
  const p = await t.api('/api/v1/payments', { body: { amount: 10, currency: 'btc', email: 'a@example.com' } });
  const { pay_address: address } = p.json.data.blockchain;
  expect(
    (await t.api('/api/v1/sandbox/transfers', { body: { currency: 'btc', address, amount: '0.00001' } })).status,
  ).toBe(201);
  expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } })).status).toBe(200);
  return p.json.data.payment.payment_id;
}

describe('rules in the request schemas, so the document states them', () => {
  const createRequest = ajv.getSchema('doc#/components/schemas/CreatePaymentRequest');

  it.each([
    ['an amount over 10,000,000', { ...order, amount: 10_000_000.01 }, 'amount'],
    ['a success_url over http', { ...order, success_url: 'http://shop.test/ok' }, 'success_url'],
    ['a cancel_url that is not absolute', { ...order, cancel_url: '/cart' }, 'cancel_url'],
    ['a cancel_url of another scheme', { ...order, cancel_url: 'ftp://shop.test/cart' }, 'cancel_url'],
  ])('POST /payments: the document and the service both refuse %s', async (_what, body, field) => {
    expect(createRequest?.(body), 'the document accepts it').toBe(false);
    const r = await t.api('/api/v1/payments', { body });
    expect(r.status, r.text).toBe(422);
    expect(Object.keys(r.json.errors)).toEqual([field]);
  });

  it('POST /payments: the document and the service both accept the bounds themselves', async () => {
    const body = {
      ...order,
      amount: 10_000_000,
      success_url: 'https://shop.test/ok',
      cancel_url: 'https://shop.test/cart?x=1',
    };
    expect(createRequest?.(body), JSON.stringify(createRequest?.errors)).toBe(true);
    const r = await t.api('/api/v1/payment-links', { body });
    expect(r.status, r.text).toBe(201);
  });

  it('GET /estimate: the amount parameter states the range the service keeps', async () => {
    const param = doc.paths['/estimate']?.get?.parameters?.find((p) => p.name === 'amount');
    const validate = ajv.compile(param?.schema ?? {});
    for (const amount of ['0', '0.00', '-1', '1e3', '10000000.01', '10000001', '99999999']) {
      expect(validate(amount), `the document accepts ${amount}`).toBe(false);
      const r = await t.api(`/api/v1/estimate?amount=${amount}&currency=btc`);
      expect(r.status, `${amount}: ${r.text}`).toBe(422);
      expect(Object.keys(r.json.errors)).toEqual(['amount']);
    }
    for (const amount of ['0.5', '19.99', '10000000', '10000000.00']) {
      expect(validate(amount), `the document refuses ${amount}`).toBe(true);
      const r = await t.api(`/api/v1/estimate?amount=${amount}&currency=btc`);
      expect(r.status, `${amount}: ${r.text}`).toBe(200);
    }
  });
});

describe('400 causes, as documented', () => {
  it('answers 400 to a JSON body that is not an object and to a malformed Idempotency-Key', async () => {
    expect(doc.components.responses.Error400?.description).toMatch(/not an object.*Idempotency-Key/);
    const notObject = await t.api('/api/v1/payments', { body: '[1]' });
    expect(notObject.status, notObject.text).toBe(400);
    const badKey = await t.api('/api/v1/payments', { body: order, headers: { 'idempotency-key': 'has space' } });
    expect(badKey.status, badKey.text).toBe(400);
    expect(badKey.json.message).toContain('Idempotency-Key');
  });
});

describe('methods', () => {
  it('sends Allow with every 405, listing the methods the document gives the path', async () => {
    for (const [template, item] of Object.entries(doc.paths)) {
      const documented = Object.keys(item).map((m) => m.toUpperCase());
      const r = await t.api(`/api/v1${concrete(template)}`, { method: 'DELETE' });
      expect(r.status, `${template}: ${r.text}`).toBe(405);
      expect(r.headers.get('allow')?.split(', ').sort(), template).toEqual(documented.sort());
    }
  });

  it('sends Allow with a 405 of the drop-in API too (one answerOtherMethods serves every API)', async () => {
    const r = await fetch(`${t.url}/api/dropin/v1/currencies`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.merchant.public_key}` },
    });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('GET');
  });

  it('answers OPTIONS on every documented path with 204 and the documented methods in Allow', async () => {
    for (const [template, item] of Object.entries(doc.paths)) {
      const r = await t.api(`/api/v1${concrete(template)}`, { method: 'OPTIONS' });
      expect(r.status, template).toBe(204);
      expect(r.headers.get('allow')?.split(', ').sort(), template).toEqual(
        Object.keys(item)
          .map((m) => m.toUpperCase())
          .sort(),
      );
    }
  });

  it('answers HEAD on every documented GET path as GET does, without a body', async () => {
    for (const [template, item] of Object.entries(doc.paths)) {
      if (!item.get) continue;
      expect(item.head, template).toBeDefined();
      const path = `/api/v1${concrete(template)}`;
      const [get, head] = [await t.api(path), await t.api(path, { method: 'HEAD' })];
      expect(head.status, template).toBe(get.status);
      expect(head.text).toBe('');
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    }
  });
});

describe('routes that take no request body', () => {
  const bodiless = operations.filter((op) => op.method === 'post' && !op.body);

  /** POST with a chunked body: no Content-Length, so only reading it shows there is one. */
  function postChunked(path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(`${t.url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': t.merchant.secret_key, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"a":');
      req.end('1}');
    });
  }

  it('are the three webhook POSTs, cancelling a refund and accepting a payment, each documented with 413', () => {
    expect(bodiless.map((op) => op.operationId).sort()).toEqual([
      'acceptPayment',
      'cancelRefund',
      'enableWebhookEndpoint',
      'redeliverWebhook',
      'sendTestWebhook',
    ]);
    for (const op of bodiless) expect(op.errors, op.operationId).toContain(413);
  });

  it('refuse any body with 413, small, 70 KB or chunked, and write nothing', async () => {
    const refundId = await freshRefund();
    for (const op of bodiless) {
      const path = `/api/v1${concrete(op.path, refundId)}`;
      const before = (await t.api('/api/v1/webhook-deliveries')).json.data.deliveries.length;
      for (const body of ['{}', JSON.stringify({ a: 'x'.repeat(70_000) })]) {
        const r = await t.api(path, { body });
        expect(r.status, `${path} ${r.text}`).toBe(413);
        expect(r.json.code).toBe('PAYLOAD_TOO_LARGE');
      }
      expect(await postChunked(path), path).toBe(413);
      expect((await t.api('/api/v1/webhook-deliveries')).json.data.deliveries.length).toBe(before);
    }
  });

  it('take a POST without a body (or an empty one) as before', async () => {
    for (const op of bodiless) {
      // A refund is cancelled once: each call takes its own.
      // A payment is accepted once, and only when partly paid: each call takes its own.
      const path = async () =>
        op.operationId === 'acceptPayment'
          ? `/api/v1/payments/${await partlyPaid()}/accept`
          : `/api/v1${concrete(op.path, op.path.includes('{refund_id}') ? await freshRefund() : undefined)}`;
      const none = await t.api(await path(), { method: 'POST' });
      expect(none.status, `${op.path} ${none.text}`).toBe(op.success.status);
      const empty = await t.api(await path(), { method: 'POST', body: '' });
      expect(empty.status, `${op.path} ${empty.text}`).toBe(op.success.status);
    }
  });
});

describe('unknown routes', () => {
  it('are 404 with or without a key; a known path without a key stays 401', async () => {
    for (const key of [null, undefined, 'sk_test_wrong']) {
      for (const [method, path] of [
        ['GET', '/api/v1/nope'],
        ['POST', '/api/v1/payments/pay_1/refund'],
        ['GET', '/api/v1/'],
      ] as const) {
        const r = await t.api(path, { method, ...(key !== undefined ? { key } : {}) });
        expect(r.status, `${method} ${path} key=${key}: ${r.text}`).toBe(404);
        expect(r.json.code).toBe('NOT_FOUND');
      }
    }
    const keyless = await t.api('/api/v1/payments', { key: null });
    expect(keyless.status).toBe(401);
  });

  it('leave the keyless document keyless for every method: 405 with Allow, OPTIONS 204', async () => {
    const post = await t.api('/api/v1/openapi.json', { method: 'POST', key: null });
    expect(post.status, post.text).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await t.api('/api/v1/openapi.json', { method: 'OPTIONS', key: null })).status).toBe(204);
  });
});
