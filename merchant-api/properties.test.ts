import { fc, test } from '@fast-check/vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { document } from '../server/testing/openapi-check.js';
import { operations } from './openapi/document.js';

/**
 * Property-based requests against the running service (generated with fast-check from the routes' request schemas'
 * rules): valid ones and near-valid ones (boundary amounts, unknown fields, wrong types, unicode, huge strings) for
 * every /api/v1 route. For each: never a 5xx, the answer fits the OpenAPI document (the harness checks every answer),
 * and a refused request writes nothing. zod-fast-check is not used: it targets zod 3, and these routes use zod 4.
 */

let t: TestService;
let payment: { id: string; address: string };
beforeAll(async () => {
  t = await startTestService();
  const r = await t.api('/api/v1/payments', { body: { amount: 25, currency: 'btc', email: 'p@example.com' } });
  payment = { id: r.json.data.payment.payment_id, address: r.json.data.blockchain.pay_address };
});
afterAll(async () => {
  await t?.close();
});

const RUNS = { numRuns: 40 };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...document, $id: 'doc' });
const createPaymentRequest = (body: unknown): boolean =>
  Boolean(ajv.getSchema('doc#/components/schemas/CreatePaymentRequest')?.(body));

const tables = [
  'payments',
  'deposits',
  'payment_events',
  'webhook_deliveries',
  'webhook_attempts',
  'idempotency_keys',
  'sandbox_transfers',
  'sandbox_blocks',
  'balance_shares',
  'merchant_balances',
] as const;

/** Rows per table: what a refused request must leave as it was. */
async function snapshot(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of tables) {
    const r = await t.service.deps.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(r.n);
  }
  return out;
}

type Req = { method: string; path: string; body?: unknown; headers?: Record<string, string> };

/** Sends one request and checks the properties; the harness has already checked the answer against the document. */
async function check(req: Req): Promise<void> {
  const before = await snapshot();
  const r = await t.api(req.path, {
    method: req.method,
    ...(req.body !== undefined ? { body: req.body } : {}),
    ...(req.headers ? { headers: req.headers } : {}),
  });
  expect(r.status, `${req.method} ${req.path} ${r.text.slice(0, 300)}`).toBeLessThan(500);
  if (r.status >= 400) {
    expect(r.json?.success, r.text.slice(0, 200)).toBe(false);
    expect(await snapshot(), `${req.method} ${req.path} was refused (${r.status}) but wrote`).toEqual(before);
  }
}

// Strings of every kind: unicode (astral, combining, RTL), control characters, huge.
const anyText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('', ' ', '__proto__', 'constructor', '\u0000', '\u202e', 'e\u0301', '😀'.repeat(3), 'x'.repeat(5000)),
);
const wrongType = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const codes = ['btc', 'BTC', 'ltc', 'doge', 'eth', 'usdterc20', 'UsdcErc20', 'trx', 'sol', 'xrp', 'pol', 'bnbbsc'];
const currency = fc.oneof(fc.constantFrom(...codes), anyText, wrongType);
const amount = fc.oneof(
  fc.constantFrom(0, -1, 0.001, 0.004, 0.005, 0.01, 1, 9_999_999.99, 10_000_000, 10_000_000.01, 1e21, 1e-7, 2 ** 53),
  fc.double({ min: 0.01, max: 1e7, noNaN: true }),
  fc.integer({ min: 1, max: 100_000 }),
  fc.double(),
  anyText,
  wrongType,
);
const validEmail = fc
  .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9.+-]{0,20}[a-z0-9]$/), fc.constantFrom('example.com', 'shop.example'))
  .map(([local, domain]) => `${local.replace(/\.{2,}/g, '.')}@${domain}`);
const email = fc.oneof(validEmail, fc.emailAddress(), anyText, wrongType);
const url = fc.oneof(fc.webUrl({ validSchemes: ['https'] }), fc.webUrl(), anyText);

const paymentBody = fc.record(
  {
    amount,
    currency,
    email,
    name: fc.oneof(anyText, wrongType),
    order_id: fc.oneof(anyText, fc.string({ minLength: 199, maxLength: 202 })),
    order_description: fc.oneof(anyText, fc.string({ minLength: 1999, maxLength: 2001 })),
    success_url: url,
    cancel_url: url,
    is_fixed_rate: fc.oneof(fc.boolean(), wrongType),
    is_fee_paid_by_user: fc.boolean(),
    unknown_field: anyText,
  },
  { requiredKeys: [] },
);
// Mostly valid bodies with one thing changed, so the deep paths (pricing, minimums) run too.
const nearValidPayment = fc
  .record({
    amount: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 20, max: 5000 }) },
      fc.constantFrom(0.01, 19.99, 10_000_000, 10_000_000.01),
    ),
    currency: fc.constantFrom(...codes),
    email: validEmail,
    order_id: fc.string({ unit: 'grapheme', maxLength: 40 }),
  })
  .chain((valid) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(valid as Record<string, unknown>) },
      paymentBody.map((noise) => ({ ...valid, ...noise })),
      fc.constant({ ...valid, extra: 1 }),
    ),
  );

const rawBody = fc.oneof(
  fc.constantFrom('{', '[]', 'null', '"x"', '{"amount":}', `{"a":"${'x'.repeat(70_000)}"}`),
  fc.json({ maxDepth: 2 }),
);

const idKey = fc.option(fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), anyText), { nil: undefined });
const headerSafe = (s: string | undefined) => (s !== undefined && /^[\x20-\x7e]*$/.test(s) ? s : undefined);

const query = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

const queryValue = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 100_000 }).map(String) },
  anyText,
  fc.integer().map(String),
  fc.constantFrom('0', '1', '500', '501', '-1', '1.5'),
);

describe('generated requests never fail the service and never write when refused', () => {
  test.prop([fc.oneof(nearValidPayment, paymentBody), idKey, fc.constantFrom('/payments', '/payment-links')], RUNS)(
    'POST /payments and /payment-links',
    async (body, key, path) => {
      const k = headerSafe(key);
      await check({
        method: 'POST',
        path: `/api/v1${path}`,
        body,
        ...(k !== undefined ? { headers: { 'idempotency-key': k } } : {}),
      });
    },
  );

  // The document's request schema is the one the route validates with: a body it refuses, a generated client or a
  // validating proxy would never send, and the service refuses it too (before anything is written).
  test.prop([fc.oneof(nearValidPayment, paymentBody)], RUNS)(
    'POST /payments: a body the OpenAPI document refuses, the service refuses',
    async (body) => {
      const documentAccepts = createPaymentRequest(body);
      const r = await t.api('/api/v1/payments', { body });
      if (!documentAccepts)
        expect(r.status, `${JSON.stringify(body).slice(0, 300)} ${r.text}`).toBeGreaterThanOrEqual(400);
    },
  );

  test.prop([rawBody, fc.constantFrom('/payments', '/payment-links', '/sandbox/transfers', '/sandbox/blocks')], RUNS)(
    'POST routes with malformed and odd JSON bodies',
    async (body, path) => {
      await check({
        method: 'POST',
        path: `/api/v1${path}`,
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
  );

  test.prop(
    [
      fc.oneof(
        {
          weight: 2,
          arbitrary: fc.record({
            amount: fc.integer({ min: 1, max: 99_999 }).map(String),
            currency: fc.constantFrom(...codes),
          }),
        },
        fc.record(
          {
            amount: queryValue,
            currency: fc.oneof(fc.constantFrom(...codes), anyText),
            other: fc.option(anyText, { nil: undefined }),
          },
          { requiredKeys: [] },
        ),
      ),
    ],
    RUNS,
  )('GET /estimate', async (q) => {
    await check({ method: 'GET', path: `/api/v1/estimate?${query(q)}` });
  });

  test.prop(
    [
      fc.record(
        {
          currency_from: fc.oneof(fc.constantFrom(...codes), anyText),
          currency_to: fc.oneof(fc.constantFrom('usd', ...codes), anyText),
          fiat_equivalent: fc.oneof(fc.constant('usd'), anyText),
          is_fixed_rate: fc.oneof(fc.constantFrom('true', 'false', '1', '0'), anyText),
        },
        { requiredKeys: [] },
      ),
    ],
    RUNS,
  )('GET /minimum-amount', async (q) => {
    await check({ method: 'GET', path: `/api/v1/minimum-amount?${query(q)}` });
  });

  test.prop(
    [
      fc.oneof(
        {
          weight: 2,
          arbitrary: fc.record(
            {
              status: fc.constantFrom('waiting', 'finished', 'pending', 'succeeded'),
              limit: fc.integer({ min: 1, max: 200 }).map(String),
              created_from: fc.date({ noInvalidDate: true, min: new Date(0) }).map((d) => d.toISOString()),
            },
            { requiredKeys: [] },
          ),
        },
        fc.record(
          {
            status: fc.oneof(fc.constantFrom('waiting', 'finished', 'refunded'), anyText),
            created_from: fc.oneof(
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              anyText,
            ),
            created_to: fc.oneof(
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              anyText,
            ),
            limit: queryValue,
            cursor: anyText,
            payment_id: fc.oneof(fc.constant('pay_x'), anyText),
          },
          { requiredKeys: [] },
        ),
      ),
      fc.constantFrom('/payments', '/webhook-deliveries'),
    ],
    RUNS,
  )('GET /payments and /webhook-deliveries (lists, filters, cursors)', async (q, path) => {
    await check({ method: 'GET', path: `/api/v1${path}?${query(q)}` });
  });

  test.prop(
    [
      fc.oneof(anyText, fc.constant('known')),
      fc.constantFrom('GET /payments/{}', 'GET /webhook-deliveries/{}', 'POST /webhook-deliveries/{}/redeliver'),
    ],
    RUNS,
  )('routes with an id in the path', async (id, route) => {
    const [method, template] = route.split(' ') as [string, string];
    const value = id === 'known' ? payment.id : encodeURIComponent(id) || '%20';
    await check({ method, path: `/api/v1${template.replace('{}', value)}` });
  });

  test.prop(
    [
      fc.record(
        {
          currency: fc.oneof(
            { weight: 4, arbitrary: fc.constant('BTC') },
            fc.constantFrom('xrp', 'eth'),
            anyText,
            wrongType,
          ),
          address: fc.oneof({ weight: 4, arbitrary: fc.constant('own') }, anyText, wrongType),
          amount: fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom('0', '0.00000001', '0.000000001', '1', '1e5', '-1') },
            amount,
          ),
          extra_id: fc.oneof(fc.constantFrom('1', '4294967296', 'abc'), anyText),
        },
        { requiredKeys: ['currency', 'address', 'amount'], noNullPrototype: true },
      ),
    ],
    RUNS,
  )('POST /sandbox/transfers', async (b) => {
    const body = { ...b, ...(b.address === 'own' ? { address: payment.address } : {}) };
    await check({ method: 'POST', path: '/api/v1/sandbox/transfers', body });
  });

  test.prop(
    [
      fc.record(
        {
          count: fc.oneof(fc.integer({ min: -1, max: 101 }), wrongType),
          network: fc.oneof(fc.constantFrom('btc', 'eth', 'nope'), anyText, wrongType),
        },
        { requiredKeys: [] },
      ),
    ],
    { numRuns: 20 },
  )('POST /sandbox/blocks', async (body) => {
    await check({ method: 'POST', path: '/api/v1/sandbox/blocks', body });
  });

  test.prop(
    [
      fc.constantFrom(...operations.filter((o) => !o.path.includes('{')).map((o) => `${o.method} ${o.path}`)),
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
    ],
    RUNS,
  )('every route with every method, no body', async (route, method) => {
    await check({ method, path: `/api/v1${route.split(' ')[1]}` });
  });
});
