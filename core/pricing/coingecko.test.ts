import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCatalog } from '../catalog/catalog.js';
import type { Asset } from '../catalog/types.js';
import { ManualClock } from '../clock.js';
import { AppError } from '../errors.js';
import { createLogger } from '../log.js';
import { type CoinGeckoOptions, createCoinGeckoRates, keyHeaderFor } from './coingecko.js';

const recorded = readFileSync(new URL('./fixtures/simple-price.json', import.meta.url), 'utf8');
const catalog = createCatalog();
const asset = (code: string) => catalog.get(code) as Asset;
const cgIds = [...new Set(catalog.list().map((a) => a.cgId))];
const KEY = 'CG-test-key-123';

interface Seen {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** A real CoinGecko stand-in on port 0. `reply` decides each answer, so a test can take the source down. */
async function startSource() {
  const seen: Seen[] = [];
  const source = {
    seen,
    reply: { status: 200, body: recorded },
    baseUrl: '',
    server: undefined as Server | undefined,
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    res.writeHead(source.reply.status, { 'content-type': 'application/json' });
    res.end(source.reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  source.server = server;
  source.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
  open.push(server);
  return source;
}

const open: Server[] = [];
async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

afterEach(async () => {
  await Promise.all(
    open
      .splice(0)
      .filter((s) => s.listening)
      .map(close),
  );
});

function setup(baseUrl: string, extra: Partial<CoinGeckoOptions> = {}) {
  const clock = new ManualClock();
  const logs: string[] = [];
  const rates = createCoinGeckoRates({
    baseUrl,
    apiKey: KEY,
    clock,
    cgIds,
    logger: createLogger('debug', (l) => logs.push(l)),
    ...extra,
  });
  return { clock, logs, rates };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('CoinGecko rates: happy path', () => {
  it('asks GET /simple/price for every id in USD with the key header asked for, and quotes the exact digits', async () => {
    const source = await startSource();
    const { clock, rates } = setup(source.baseUrl, { apiKeyHeader: 'x-cg-pro-api-key' });

    const result = await rates.refresh();

    expect(result).toEqual({ ok: true, value: { updated: 11 } });
    expect(source.seen).toHaveLength(1);
    const [req] = source.seen;
    expect(req?.path).toBe('/api/v3/simple/price');
    expect(req?.query.get('vs_currencies')).toBe('usd');
    expect(req?.query.get('ids')?.split(',').sort()).toEqual([...cgIds].sort());
    expect(req?.headers['x-cg-pro-api-key']).toBe(KEY);
    expect(req?.headers['x-cg-demo-api-key']).toBeUndefined();
    expect(await rates.usdRate(asset('BTC'))).toEqual({ rate: '67187.33', fetchedAt: clock.now() });
    expect((await rates.usdRate(asset('DOGE'))).rate).toBe('0.12341587');
    // Tokens share their coin's price: every USDT network reads `tether`.
    expect((await rates.usdRate(asset('USDTTRC20'))).rate).toBe('1.001');
    expect((await rates.usdRate(asset('USDTBSC'))).rate).toBe('1.001');
  });

  it('fetches every asked fiat currency in the same request and keeps each price apart (vsCurrencies)', async () => {
    const source = await startSource();
    source.reply = { status: 200, body: '{"bitcoin":{"usd":67187.33,"eur":61234.5,"jpy":10123456}}' };
    const { rates } = setup(source.baseUrl, { vsCurrencies: ['USD', 'EUR', 'JPY', 'GBP'] });
    await rates.refresh();
    expect(source.seen[0]?.query.get('vs_currencies')).toBe('usd,eur,jpy,gbp');
    expect((await rates.usdRate(asset('BTC'))).rate).toBe('67187.33');
    expect((await rates.rate(asset('BTC'), 'EUR')).rate).toBe('61234.5');
    expect((await rates.rate(asset('BTC'), 'JPY')).rate).toBe('10123456');
    // A currency the source left out is refused, not guessed from another.
    expect((await refusal(rates.rate(asset('BTC'), 'GBP'))).message).toMatch(/^Price for BTC in GBP is stale/);
  });

  it('sends a demo key in x-cg-demo-api-key when asked, and no key header without a key', async () => {
    const source = await startSource();
    await setup(source.baseUrl, { apiKeyHeader: 'x-cg-demo-api-key' }).rates.refresh();
    await setup(`${source.baseUrl}/`, { apiKey: undefined }).rates.refresh();

    expect(source.seen[0]?.headers['x-cg-demo-api-key']).toBe(KEY);
    expect(source.seen[0]?.headers['x-cg-pro-api-key']).toBeUndefined();
    expect(source.seen[1]?.path).toBe('/api/v3/simple/price');
    expect(Object.keys(source.seen[1]?.headers ?? {}).filter((h) => h.startsWith('x-cg-'))).toEqual([]);
  });

  it('picks the key header by the host: pro for pro-api.coingecko.com, demo for api.coingecko.com and others', () => {
    expect(keyHeaderFor('https://pro-api.coingecko.com/api/v3')).toBe('x-cg-pro-api-key');
    expect(keyHeaderFor('https://api.coingecko.com/api/v3')).toBe('x-cg-demo-api-key');
    expect(keyHeaderFor('http://127.0.0.1:9/api/v3')).toBe('x-cg-demo-api-key');
  });

  it('sends the key in the demo header by default to a source that is not pro-api', async () => {
    const source = await startSource();
    await setup(source.baseUrl).rates.refresh();
    expect(source.seen[0]?.headers['x-cg-demo-api-key']).toBe(KEY);
    expect(source.seen[0]?.headers['x-cg-pro-api-key']).toBeUndefined();
  });

  it('turns prices JSON writes in exponent form into plain exact decimals', async () => {
    const source = await startSource();
    source.reply = { status: 200, body: '{"bitcoin":{"usd":1.5e-7},"ethereum":{"usd":12345678901234567890}}' };
    const { rates } = setup(source.baseUrl);

    await rates.refresh();

    expect((await rates.usdRate(asset('BTC'))).rate).toBe('0.00000015');
    expect((await rates.usdRate(asset('ETH'))).rate).toBe('12345678901234567000');
  });

  it('refreshes in the background after start() and stops after stop()', async () => {
    const source = await startSource();
    const { rates } = setup(source.baseUrl, { refreshMs: 20 });

    rates.start();
    rates.start(); // idempotent: still one timer
    await vi.waitFor(() => expect(source.seen.length).toBeGreaterThanOrEqual(3));
    rates.stop();
    const count = source.seen.length;
    await new Promise((r) => setTimeout(r, 100));

    expect(source.seen.length).toBeLessThanOrEqual(count + 1); // at most the request already in flight
    expect((await rates.usdRate(asset('SOL'))).rate).toBe('146.82');
  });

  it('shares one request between overlapping refreshes', async () => {
    const source = await startSource();
    const { rates } = setup(source.baseUrl);

    const [a, b] = await Promise.all([rates.refresh(), rates.refresh()]);

    expect(a).toEqual(b);
    expect(source.seen).toHaveLength(1);
  });
});

describe('CoinGecko rates: stale or missing prices', () => {
  it('refuses to quote before the first answer', async () => {
    const source = await startSource();
    const { rates } = setup(source.baseUrl);

    const e = await refusal(rates.usdRate(asset('BTC')));

    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toBe(
      'Price for BTC is stale (last update never); pricing is paused until the rate source answers',
    );
    expect(e.retryAfter).toBe(60);
  });

  it('quotes up to staleAfterMs after the last answer, then refuses with the time of the last update', async () => {
    const source = await startSource();
    const { clock, rates } = setup(source.baseUrl, { staleAfterMs: 600_000 });
    await rates.refresh();
    const fetchedAt = clock.now();

    clock.advance(600_000);
    expect(await rates.usdRate(asset('ETH'))).toEqual({ rate: '3012.46', fetchedAt });

    clock.advance(1);
    const e = await refusal(rates.usdRate(asset('ETH')));
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toBe(
      `Price for ETH is stale (last update ${new Date(fetchedAt).toISOString()}); pricing is paused until the rate source answers`,
    );
  });

  it('refuses an asset whose id the source left out of its answer', async () => {
    const source = await startSource();
    source.reply = { status: 200, body: '{"bitcoin":{"usd":67000},"tron":{"usd":0},"solana":{}}' };
    const { logs, rates } = setup(source.baseUrl);

    expect(await rates.refresh()).toEqual({ ok: true, value: { updated: 1 } });

    expect((await refusal(rates.usdRate(asset('XRP')))).code).toBe('UNAVAILABLE');
    // A zero price would divide by zero downstream; it is skipped like a missing one.
    expect((await refusal(rates.usdRate(asset('TRX')))).code).toBe('UNAVAILABLE');
    expect((await refusal(rates.usdRate(asset('SOL')))).code).toBe('UNAVAILABLE');
    expect(logs.some((l) => l.includes('"cgId":"tron"'))).toBe(true);
  });
});

describe('CoinGecko rates: source down', () => {
  it('keeps the last price through HTTP 500 until it is stale, then refuses; failures are logged', async () => {
    const source = await startSource();
    const { clock, logs, rates } = setup(source.baseUrl);
    await rates.refresh();
    const fetchedAt = clock.now();
    source.reply = { status: 500, body: '{"error":"internal"}' };

    clock.advance(300_000);
    const result = await rates.refresh();

    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('UNAVAILABLE');
    expect(await rates.usdRate(asset('BTC'))).toEqual({ rate: '67187.33', fetchedAt });
    expect(logs.some((l) => l.includes('price refresh failed') && l.includes('HTTP 500'))).toBe(true);
    expect(logs.join('\n')).not.toContain(KEY);

    clock.advance(300_001);
    expect((await refusal(rates.usdRate(asset('BTC')))).message).toMatch(/^Price for BTC is stale \(last update /);

    // The source comes back: quoting resumes with the new time.
    source.reply = { status: 200, body: recorded };
    await rates.refresh();
    expect(await rates.usdRate(asset('BTC'))).toEqual({ rate: '67187.33', fetchedAt: clock.now() });
  });

  it('keeps the last price when the connection is refused, and the timer never throws', async () => {
    const source = await startSource();
    const { clock, logs, rates } = setup(source.baseUrl, { refreshMs: 10, staleAfterMs: 1_000 });
    await rates.refresh();
    await close(source.server as Server);

    const result = await rates.refresh();
    expect(result.ok).toBe(false);
    rates.start();
    await vi.waitFor(() =>
      expect(logs.filter((l) => l.includes('price refresh failed')).length).toBeGreaterThanOrEqual(3),
    );
    rates.stop();

    expect((await rates.usdRate(asset('LTC'))).rate).toBe('71.69');
    clock.advance(1_001);
    expect((await refusal(rates.usdRate(asset('LTC')))).code).toBe('UNAVAILABLE');
  });

  it('keeps the last prices when the source answers something that is not a price list', async () => {
    const source = await startSource();
    const { logs, rates } = setup(source.baseUrl);
    await rates.refresh();

    for (const body of ['<html>rate limited</html>', '{"bitcoin":{"usd":"67000"}}', '[]']) {
      source.reply = { status: 200, body };
      expect((await rates.refresh()).ok, body).toBe(false);
    }

    expect((await rates.usdRate(asset('BTC'))).rate).toBe('67187.33');
    expect(logs.filter((l) => l.includes('price refresh failed'))).toHaveLength(3);
  });
});

describe('CoinGecko rates: status', () => {
  it('is off before any refresh, fresh after one, then stale since the first price outlived the bound', async () => {
    const source = await startSource();
    const { clock, rates } = setup(source.baseUrl, { staleAfterMs: 600_000 });
    expect(rates.status()).toMatchObject({ state: 'off', updated_at: null, stale_ids: [] });

    await rates.refresh();
    const fetchedAt = clock.now();
    // The recorded answer has a price for every id but one (11 of 12): that one is stale from the first answer.
    const first = rates.status();
    expect(first.updated_at).toBe(new Date(fetchedAt).toISOString());
    expect(first.stale_ids).toHaveLength(cgIds.length - 11);

    source.reply = { status: 500, body: 'down' };
    clock.advance(600_001);
    await rates.refresh();
    const stale = rates.status();
    expect(stale.state).toBe('stale');
    expect(stale.stale_ids).toHaveLength(cgIds.length);
    expect(stale.stale_since).toBe(new Date(fetchedAt).toISOString());
    expect(stale.last_error).toBe('rate source answered HTTP 500: down');
    expect(stale.last_error_at).toBe(new Date(clock.now()).toISOString());
    expect(JSON.stringify(stale)).not.toContain(KEY);
  });

  it('is fresh with every price answered, and forgets the last error once the source answers again', async () => {
    const source = await startSource();
    const all = Object.fromEntries(cgIds.map((id) => [id, { usd: 2 }]));
    source.reply = { status: 503, body: '' };
    const { clock, rates } = setup(source.baseUrl, { staleAfterMs: 1000 });
    await rates.refresh();
    expect(rates.status()).toMatchObject({ state: 'stale', stale_since: new Date(clock.now()).toISOString() });

    source.reply = { status: 200, body: JSON.stringify(all) };
    await rates.refresh();
    expect(rates.status()).toMatchObject({ state: 'fresh', stale_since: null, stale_ids: [], last_error: null });
    clock.advance(1000);
    expect(rates.status().state).toBe('fresh');
    clock.advance(1);
    expect(rates.status()).toMatchObject({ state: 'stale', stale_ids: cgIds });
  });
});
