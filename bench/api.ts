import autocannon from 'autocannon';
import { freshStoreUrl } from '../server/testing/store.js';
import { startTarget } from './target-process.js';

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Runs autocannon (in this process) against a target in another process. */
export async function load(opts: {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  seconds: number;
  connections?: number;
}): Promise<LoadFigures> {
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    connections: opts.connections ?? 50,
    duration: opts.seconds,
    headers: opts.headers ?? {},
    ...(opts.body ? { body: opts.body } : {}),
  });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

export interface ApiBench {
  ceiling: LoadFigures;
  stores: Record<string, { createPayment: LoadFigures; getPayment: LoadFigures; peakRssMb: number }>;
}

/**
 * Issue 2 benchmark: POST /payments and GET /payments/{id} at 50 connections on SQLite and PostgreSQL, against a
 * bare Hono JSON route served the same way as the ceiling, all in one run.
 */
export async function benchApi(
  seconds = 10,
  pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
): Promise<ApiBench> {
  const ceilingTarget = await startTarget('bench/api-target.ts', { TARGET: 'ceiling' });
  await load({ url: `http://127.0.0.1:${ceilingTarget.info.port}/json`, seconds: 2 }); // warm-up
  const ceiling = await load({ url: `http://127.0.0.1:${ceilingTarget.info.port}/json`, seconds });
  await ceilingTarget.stop();

  const stores: ApiBench['stores'] = {};
  for (const kind of ['sqlite', 'postgres'] as const) {
    const prev = process.env.TEST_DATABASE_URL;
    if (kind === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
    else delete process.env.TEST_DATABASE_URL;
    const store = await freshStoreUrl();
    if (prev === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = prev;
    const target = await startTarget('bench/api-target.ts', { TARGET: 'service', DATABASE_URL: store.url });
    const base = `http://127.0.0.1:${target.info.port}/api/v1`;
    const headers = { 'x-api-key': String(target.info.key), 'content-type': 'application/json' };
    const body = JSON.stringify({ amount: 100, currency: 'btc', email: 'bench@example.com', order_id: 'bench' });
    await load({ url: `${base}/payments`, method: 'POST', headers, body, seconds: 2 }); // warm-up (JIT, caches)
    const createPayment = await load({ url: `${base}/payments`, method: 'POST', headers, body, seconds });
    const getPayment = await load({ url: `${base}/payments/${target.info.paymentId}`, headers, seconds });
    const peakRssMb = target.peakRssMb();
    await target.stop();
    await store.dispose();
    stores[kind] = { createPayment, getPayment, peakRssMb };
  }
  return { ceiling, stores };
}
