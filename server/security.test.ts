import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggablePath } from '../api-kit/errors.js';
import { createLogger } from '../core/log.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from './testing/harness.js';

/*
 * The holes an outside attack run found (issue 9), each driven from outside over real HTTP against the real
 * service on a real store, so the fix is proven where it was broken.
 */

const logLines: string[] = [];
let t: TestService;
beforeAll(async () => {
  t = await startTestService({ overrides: { logger: createLogger('debug', (l) => logLines.push(l)) } });
});
afterAll(async () => {
  await t?.close();
});

const order = { amount: 100, currency: 'btc', email: 'ann@example.com' };
const protoNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

async function count(table: 'payments' | 'dropin_sessions' | 'sandbox_transfers' | 'sandbox_blocks'): Promise<number> {
  const r = await t.service.deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A drop-in session token of the test merchant, from its public key. */
async function sessionToken(body: Record<string, unknown> = {}): Promise<string> {
  const r = await t.api('/api/dropin/v1/sessions', {
    key: null,
    headers: { authorization: `Bearer ${t.merchant.public_key}` },
    body: { amount: 25, customer: { email: 'ann@example.com' }, ...body },
  });
  expect(r.status, r.text).toBe(201);
  return r.json.data.session_token;
}

/** A JSON text with one more top-level field named `name` (JSON.stringify cannot write `__proto__` as a key). */
function withField(body: object, name: string): string {
  return `${JSON.stringify(body).slice(0, -1)},"${name}":1}`;
}

describe('field and parameter names that are Object.prototype members', () => {
  it('are unknown fields (422, nothing written) on every JSON route of the merchant API', async () => {
    const routes: [string, object][] = [
      ['/api/v1/payments', order],
      ['/api/v1/payment-links', order],
      [
        '/api/v1/sandbox/transfers',
        { currency: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '1' },
      ],
      ['/api/v1/sandbox/blocks', { count: 1 }],
    ];
    const before = [await count('payments'), await count('sandbox_transfers'), await count('sandbox_blocks')];
    for (const [path, body] of routes) {
      for (const name of protoNames) {
        const r = await t.api(path, { body: withField(body, name) });
        expect(r.status, `${path} ${name}: ${r.text}`).toBe(422);
        expect(r.json.errors[name], `${path} ${name}`).toEqual(['Unknown field']);
      }
    }
    expect([await count('payments'), await count('sandbox_transfers'), await count('sandbox_blocks')]).toEqual(before);
  });

  it('are unknown fields (422, nothing written) on every JSON route of the drop-in API', async () => {
    const token = await sessionToken();
    const auth = { authorization: `Bearer ${t.merchant.public_key}` };
    const routes: [string, object, Record<string, string>][] = [
      ['/api/dropin/v1/sessions', { amount: 25, customer: { email: 'ann@example.com' } }, auth],
      [`/api/dropin/v1/sessions/${token}/payment`, { currency: 'btc' }, {}],
      [`/api/dropin/v1/sessions/${token}/simulate`, { blocks: 1 }, {}],
    ];
    const before = [await count('payments'), await count('dropin_sessions')];
    for (const [path, body, headers] of routes) {
      for (const name of protoNames) {
        const r = await t.api(path, { key: null, headers, body: withField(body, name) });
        expect(r.status, `${path} ${name}: ${r.text}`).toBe(422);
        expect(r.json.errors[name], `${path} ${name}`).toEqual(['Unknown field']);
      }
    }
    expect([await count('payments'), await count('dropin_sessions')]).toEqual(before);
  });

  it('are unknown parameters (422) of every validated query', async () => {
    for (const path of [
      '/api/v1/payments?',
      '/api/v1/minimum-amount?currency_from=btc&currency_to=btc&',
      '/api/v1/estimate?amount=10&currency=btc&',
      '/api/v1/webhook-deliveries?',
    ]) {
      for (const name of protoNames) {
        const r = await t.api(`${path}${name}=1`);
        expect(r.status, `${path}${name}: ${r.text}`).toBe(422);
        expect(r.json.errors[name], `${path}${name}`).toEqual(['Unknown field']);
      }
    }
  });

  it('a query parameter given twice is refused, not silently reduced to one', async () => {
    const r = await t.api('/api/v1/payments?status=finished&status=waiting');
    expect(r.status).toBe(422);
    expect(r.json.errors.status).toEqual(['Given more than once; send each parameter once']);
  });
});

describe('a NUL character (U+0000), which PostgreSQL text cannot hold', () => {
  // Found by the property-based run on PostgreSQL: each of these answered 500 there, after validation had passed.
  it('in any string of a JSON body is a 422 on that field, nothing written', async () => {
    const token = await sessionToken();
    const before = [await count('payments'), await count('dropin_sessions')];
    for (const [path, body, key] of [
      ['/api/v1/payments', { ...order, order_description: 'a\u0000b' }, undefined],
      ['/api/v1/payments', { ...order, order_id: '1042\u0000' }, undefined],
      ['/api/v1/payment-links', { ...order, order_id: '\u0000' }, undefined],
      ['/api/dropin/v1/sessions', { amount: 25, customer: { email: 'ann@example.com', name: 'A\u0000' } }, null],
      [`/api/dropin/v1/sessions/${token}/payment`, { currency: 'btc\u0000' }, null],
    ] as const) {
      const r =
        key === null
          ? await t.api(path, { key, headers: { authorization: `Bearer ${t.merchant.public_key}` }, body })
          : await t.api(path, { body });
      expect(r.status, `${path}: ${r.text}`).toBe(422);
      expect(JSON.stringify(r.json.errors), path).toMatch(/NUL character/);
    }
    expect([await count('payments'), await count('dropin_sessions')]).toEqual(before);
  });

  it('in a query value is a 422 on that parameter; in a path id the resource is simply not found', async () => {
    const q = await t.api('/api/v1/payments?cursor=a%00');
    expect(q.status, q.text).toBe(422);
    expect(q.json.errors.cursor).toEqual(['Must not contain the NUL character (U+0000)']);
    for (const path of ['/api/v1/payments/%00', '/api/v1/payments/pay_%00', '/api/v1/webhook-deliveries/%00']) {
      const r = await t.api(path);
      expect(r.status, `${path}: ${r.text}`).toBe(404);
    }
    const redeliver = await t.api('/api/v1/webhook-deliveries/dlv_%00/redeliver', { method: 'POST' });
    expect(redeliver.status, redeliver.text).toBe(404);
  });
});

describe('static paths with malformed percent-escapes', () => {
  it.each(['/dropin/v1/%', '/dropin/v1/%E0%A4%A', '/icons/%', '/icons/%ff'])(
    '%s is a 400 in the envelope',
    async (path) => {
      const r = await t.api(path, { key: null });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    },
  );

  it('well-formed escapes still find their file', async () => {
    expect((await t.api('/icons/%62tc.svg', { key: null })).status).toBe(200);
    expect((await t.api('/icons/..%2f..%2fpackage.json', { key: null })).status).toBe(404);
  });
});

describe('headers of the pages the service serves', () => {
  it('every page, script and answer carries nosniff; pages a script-tight CSP and frame rules', async () => {
    const created = await t.api('/api/v1/payment-links', { body: order });
    const hosted = new URL(created.json.data.payment.hosted_payment_url as string);
    const origin = new URL(t.url).origin;
    for (const path of [
      '/demo/',
      `${hosted.pathname}${hosted.search}`,
      '/pay/pay_unknown?t=x',
      '/dropin/v1/checkout.js',
      '/icons/btc.svg',
      '/demo/config.js',
      '/healthz',
      '/api/v1/currencies',
      '/no/such/page',
    ]) {
      const res = await fetch(`${t.url}${path}`, { headers: { 'x-api-key': t.merchant.secret_key } });
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      const csp = res.headers.get('content-security-policy') ?? '';
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scriptSrc.split(' ').sort(), path).toEqual(["'self'", origin].sort());
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});

describe('tokens in logs, and aborted requests', () => {
  it("cuts every capability in a logged path: checkout tokens, keys and a reusable link's token", () => {
    const token = 'Qm9vZ2llV29vZ2llQm9vZ2llV29vZ2ll';
    expect(loggablePath(`/l/${token}`)).toBe('/l/…');
    expect(loggablePath(`/refund/${token}`)).toBe('/refund/…');
    expect(loggablePath(`/api/dropin/v1/links/${token}/payments`)).toBe('/api/dropin/v1/links/…/payments');
    expect(loggablePath('/api/dropin/v1/sessions/cs_AbCdEf/events')).toBe('/api/dropin/v1/sessions/cs_…/events');
  });

  it('a client that aborts its body on a session route leaves a debug line with the token cut, never an error', async () => {
    const token = await sessionToken();
    const before = logLines.length;
    const port = Number(new URL(t.url).port);
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/dropin/v1/sessions/${token}/payment HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"curr`,
        );
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
    });
    const lines = async () => logLines.slice(before).map((l) => JSON.parse(l) as Record<string, string>);
    for (let i = 0; i < 50 && !(await lines()).some((l) => l.msg === 'request aborted by the client'); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const mine = await lines();
    expect(mine.find((l) => l.msg === 'request aborted by the client')).toMatchObject({
      level: 'debug',
      path: '/api/dropin/v1/sessions/cs_…/payment',
    });
    expect(mine.filter((l) => l.level === 'error')).toEqual([]);
    expect(logLines.join('\n')).not.toContain(token);
  });
});

describe('the drop-in for a live merchant without allowed origins', () => {
  it("takes its own origin from PUBLIC_URL, never from the request's Host header", async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Live shop', mode: 'live' });
    const port = Number(new URL(t.url).port);
    const post = (host: string, origin: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/dropin/v1/currencies',
            headers: { host, origin, authorization: `Bearer ${live.public_key}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await post('evil.example', 'http://evil.example')).toBe(403);
    expect(await post(`127.0.0.1:${port}`, t.url)).toBe(200);
  });
});

describe('event streams', () => {
  it('one checkout holds at most 5 open streams; the 6th gets 429 until one closes', async () => {
    const token = await sessionToken({ crypto_currency: 'btc' });
    const url = `${t.url}/api/dropin/v1/sessions/${token}/events`;
    const open = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const ac = new AbortController();
        const res = await fetch(url, { signal: ac.signal });
        expect(res.status).toBe(200);
        return ac;
      }),
    );
    const sixth = await fetch(url);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('5');
    open[0]?.abort();
    let again = 429;
    for (let i = 0; i < 50 && again === 429; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => null);
      again = res?.status ?? 0;
      if (res?.status === 200) await res.body?.cancel();
    }
    expect(again).toBe(200);
    for (const ac of open) ac.abort();
  });
});

describe('slow clients', () => {
  it('a request head that never completes is cut after HEADERS_TIMEOUT_MS', async () => {
    const s = await startTestService({ env: { HEADERS_TIMEOUT_MS: '300' } });
    try {
      const port = Number(new URL(s.url).port);
      const answer = await new Promise<string>((resolve) => {
        let got = '';
        const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
        socket.on('data', (d) => {
          got += d.toString();
        });
        socket.on('close', () => resolve(got));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await s.close();
    }
  });
});

describe('rate limits of the drop-in', () => {
  let r: TestService;
  beforeAll(async () => {
    r = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '5' } });
  });
  afterAll(async () => {
    await r?.close();
  });

  /** A request from one of loopback's many addresses, as a client on that address would send it. */
  function from(address: string, key: string): Promise<number> {
    const u = new URL(r.url);
    const body = JSON.stringify({ amount: 25, customer: { email: 'ann@example.com' } });
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          method: 'POST',
          path: '/api/dropin/v1/sessions',
          localAddress: address,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it("a flood from two addresses, of the real dk_ key and of invalid keys sharing its prefix, leaves a third address's customer unaffected", async () => {
    const key = r.merchant.public_key;
    const fake = `${key.slice(0, 24)}${'x'.repeat(key.length - 24)}`;
    const flood = await Promise.all(
      ['127.0.0.2', '127.0.0.3'].flatMap((a) => Array.from({ length: 30 }, (_, i) => from(a, i % 2 ? key : fake))),
    );
    expect(flood.filter((s) => s === 429).length).toBeGreaterThan(40);
    expect(await from('127.0.0.4', key)).toBe(201);
  });
});
