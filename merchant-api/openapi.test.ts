import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { document } from '../server/testing/openapi-check.js';

let t: TestService;
let rcv: TestReceiver;
beforeAll(async () => {
  rcv = await startReceiver('unknown-yet');
  t = await startTestService({ start: true, webhookUrl: rcv.url });
  rcv.secret = t.merchant.webhook_secret;
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
});

type Doc = {
  paths: Record<string, Record<string, { parameters?: { name?: string; $ref?: string }[]; responses: object }>>;
  webhooks: Record<string, { post: { parameters: { name: string }[]; description: string } }>;
  servers: { url: string }[];
  components: { securitySchemes: Record<string, unknown> };
};

async function served(): Promise<Doc> {
  const r = await t.api('/api/v1/openapi.json', { key: null });
  expect(r.status, r.text).toBe(200);
  return r.json as Doc;
}

describe('OpenAPI document', () => {
  it('is served at /api/v1/openapi.json without a key, naming the service PUBLIC_URL', async () => {
    const doc = await served();
    expect(doc.servers).toEqual([{ url: `${t.url}/api/v1` }]);
    expect(doc.components.securitySchemes.ApiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: expect.any(String),
    });
  });

  it('is a valid OpenAPI 3.1 document by an independent validator (swagger-parser)', async () => {
    const api = await SwaggerParser.validate((await served()) as never);
    expect((api as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('documents every route the app registers under /api/v1, with its method', () => {
    const doc = document as unknown as Doc;
    const missing: string[] = [];
    for (const r of t.service.app.routes) {
      if (r.method === 'ALL' || !r.path.startsWith('/api/v1/')) continue;
      const path = r.path.slice('/api/v1'.length).replace(/:([A-Za-z_]+)/g, '{$1}');
      if (!doc.paths[path]?.[r.method.toLowerCase()]) missing.push(`${r.method} ${path}`);
    }
    expect(missing).toEqual([]);
    // And nothing documented that the app does not serve (HEAD and OPTIONS are answered on every path: tested below).
    const served = new Set(t.service.app.routes.map((r) => `${r.method} ${r.path}`));
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of Object.keys(item).filter((m) => m !== 'head' && m !== 'options'))
        expect(served, `${method} ${path}`).toContain(
          `${method.toUpperCase()} /api/v1${path.replace(/\{([^}]+)\}/g, ':$1')}`,
        );
  });

  it('documents the error envelope for each error status, and Idempotency-Key on the creating routes', () => {
    const doc = document as unknown as Doc;
    const create = doc.paths['/payments']?.post;
    expect(create?.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(Object.keys(create?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '401', '409', '413', '415', '422', '429', '500', '503']),
    );
    expect(doc.paths['/payments/{payment_id}']?.get?.responses).toHaveProperty('404', {
      $ref: '#/components/responses/Error404',
    });
  });

  it('describes payment.updated as a webhook with its four headers and the signature rule', () => {
    const hook = (document as unknown as Doc).webhooks['payment.updated']?.post;
    expect(hook?.parameters.map((p) => p.name)).toEqual([
      'X-Service-Event',
      'X-Service-Delivery',
      'X-Service-Timestamp',
      'X-Service-Signature',
    ]);
    expect(hook?.description).toContain('timestamp');
    expect(hook?.description).toContain('HMAC-SHA256');
  });

  it('describes the payload a real delivery carries (a paid sandbox payment, received and checked)', async () => {
    const created = await t.api('/api/v1/payments', { body: { amount: 50, currency: 'ltc', email: 'a@example.com' } });
    expect(created.status, created.text).toBe(201);
    const d = created.json.data;
    const amount = /"pay_amount":([0-9.]+)/.exec(created.text)?.[1];
    await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'ltc', address: d.blockchain.pay_address, amount },
    });
    await t.api('/api/v1/sandbox/blocks', { body: { network: d.blockchain.network, count: 2 } });
    const got = await rcv.waitFor(
      (all) => all.filter((x) => x.json?.payment?.payment_id === d.payment.payment_id).length >= 2,
    );
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ ...document, $id: 'doc' });
    const validate = ajv.getSchema('doc#/components/schemas/PaymentUpdatedEvent');
    for (const r of got) {
      expect(r.verified).toBe(true);
      expect(validate?.(JSON.parse(r.body)), JSON.stringify(validate?.errors)).toBe(true);
    }
  });
});
