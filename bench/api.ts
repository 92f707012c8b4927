import autocannon from 'autocannon';
import { freshStoreUrl } from '../server/testing/store.js';
import { median } from './stats.js';
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
  stores: Record<
    string,
    {
      createPayment: LoadFigures;
      getPayment: LoadFigures;
      /** The ceiling measured in windows alternating with the GET windows, and the median of the paired ratios. */
      getCeiling: LoadFigures;
      getRatio: number;
      peakRssMb: number;
    }
  >;
}

/** Alternating windows of the GET and of the ceiling: a drifting machine moves both, not just one. */
const PAIRED_ROUNDS = 3;

/** The round whose rps is nearest the median, so its latencies go with it. */
function medianRound(rounds: LoadFigures[]): LoadFigures {
  const m = median(rounds.map((r) => r.rps));
  return rounds.reduce((best, r) => (Math.abs(r.rps - m) < Math.abs(best.rps - m) ? r : best));
}

/**
 * Issue 2 benchmark: POST /payments and GET /payments/{id} at 50 connections on SQLite and PostgreSQL, against a
 * bare Hono JSON route served the same way as the ceiling, all in one run. The GET's ratio to the ceiling is paired:
 * GET and ceiling windows alternate (three of each), and the median of the three ratios is reported, since a
 * shared machine's speed drifts over the minutes between a ceiling measured once at the start and a GET.
 */
export async function benchApi(
  seconds = 10,
  pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
): Promise<ApiBench> {
  // The ceiling process stays up (idle, it costs nothing) so its GET-paired windows run next to the service's.
  const ceilingTarget = await startTarget('bench/api-target.ts', { TARGET: 'ceiling' });
  const ceilingUrl = `http://127.0.0.1:${ceilingTarget.info.port}/json`;
  await load({ url: ceilingUrl, seconds: 2 }); // warm-up
  const ceiling = await load({ url: ceilingUrl, seconds });

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
    const gets: LoadFigures[] = [];
    const ceilings: LoadFigures[] = [];
    for (let round = 0; round < PAIRED_ROUNDS; round++) {
      gets.push(await load({ url: `${base}/payments/${target.info.paymentId}`, headers, seconds: seconds / 2 }));
      ceilings.push(await load({ url: ceilingUrl, seconds: seconds / 2 }));
    }
    const peakRssMb = target.peakRssMb();
    await target.stop();
    await store.dispose();
    const getRatio = Math.round(median(gets.map((g, i) => g.rps / (ceilings[i] as LoadFigures).rps)) * 1000) / 1000;
    stores[kind] = {
      createPayment,
      getPayment: medianRound(gets),
      getCeiling: medianRound(ceilings),
      getRatio,
      peakRssMb,
    };
  }
  await ceilingTarget.stop();
  return { ceiling, stores };
}
