import { freshStoreUrl } from '../server/testing/store.js';
import { runIfMain } from './standalone.js';
import { median } from './stats.js';
import { startTarget } from './target-process.js';

/**
 * The scale part of `npm run bench` (issue 13): the same requests against a store of 1,000 and one of 1,000,000
 * payments (with deposits and delivered webhooks), on SQLite and PostgreSQL, plus the webhook claim query with
 * 100,000 pending deliveries in each. Target: every figure of the large store within 1.5x of the small one.
 */
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SMALL = 1_000;
const LARGE = Number(process.env.SCALE_LARGE ?? '1000000');
export const SCALE_FLOOR = 1.5;

type Figures = {
  seedSeconds: number;
  createPaymentMs: number;
  getPaymentMs: number;
  listFirstPageMs: number;
  listFilteredMs: number;
  balancesMs: number;
  claimMs: number;
};
export type ScaleBench = {
  small: number;
  large: number;
  pending: number;
  stores: Record<string, { small: Figures; large: Figures; ratios: Record<string, number> } | { skipped: string }>;
};

/**
 * Median milliseconds of `runs` sequential requests over keep-alive, request to last byte (the service's whole
 * handling plus a loopback round trip). The first 20 warm up.
 */
async function timeRequests(url: string, init: RequestInit, runs = 100): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs + 20; i++) {
    const t0 = performance.now();
    const r = await fetch(url, init);
    await r.arrayBuffer();
    if (r.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url}: ${r.status}`);
    if (i >= 20) times.push(performance.now() - t0);
  }
  return Math.round(median(times) * 1000) / 1000;
}

/** A seeded target of `payments` payments on a fresh store of `kind`. */
async function seeded(kind: 'sqlite' | 'postgres', payments: number) {
  if (kind === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  else delete process.env.TEST_DATABASE_URL;
  const store = await freshStoreUrl();
  const target = await startTarget(
    'bench/scale-target.ts',
    { DATABASE_URL: store.url, SCALE_PAYMENTS: String(payments), SCALE_PENDING: '100000' },
    { readyTimeoutMs: 20 * 60_000 },
  );
  return {
    info: target.info,
    async stop() {
      await target.stop();
      await store.dispose();
    },
  };
}

type Seeded = Awaited<ReturnType<typeof seeded>>;

/** The requests of the run against one target: median milliseconds of each. */
async function requestTimes(t: Seeded): Promise<Omit<Figures, 'seedSeconds' | 'claimMs'>> {
  const base = `http://127.0.0.1:${t.info.port}/api/v1`;
  const headers = { 'x-api-key': String(t.info.key) };
  const body = JSON.stringify({ amount: 25, currency: 'btc', email: 'scale@example.com' });
  const from = new Date(Date.now() - 180 * 86_400_000).toISOString();
  return {
    createPaymentMs: await timeRequests(`${base}/payments`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    }),
    getPaymentMs: await timeRequests(`${base}/payments/${t.info.paymentId}`, { headers }),
    listFirstPageMs: await timeRequests(`${base}/payments?limit=50`, { headers }),
    listFilteredMs: await timeRequests(`${base}/payments?status=partially_paid&created_from=${from}&limit=50`, {
      headers,
    }),
    balancesMs: await timeRequests(`${base}/balances`, { headers }),
  };
}

/**
 * Both stores of one kind side by side, their request windows alternating three times (this shared machine's speed
 * drifts): each figure is the median of its three windows, each ratio the median of the three paired ratios.
 */
async function measurePair(kind: 'sqlite' | 'postgres') {
  const smallTarget = await seeded(kind, SMALL);
  try {
    const largeTarget = await seeded(kind, LARGE);
    try {
      const rounds: {
        small: Awaited<ReturnType<typeof requestTimes>>;
        large: Awaited<ReturnType<typeof requestTimes>>;
      }[] = [];
      for (let r = 0; r < 3; r++)
        rounds.push({ small: await requestTimes(smallTarget), large: await requestTimes(largeTarget) });
      const figures = (t: Seeded, side: 'small' | 'large'): Figures => {
        const out = { seedSeconds: Number(t.info.seedSeconds), claimMs: Number(t.info.claimMs) } as Figures;
        for (const k of Object.keys(rounds[0]?.[side] ?? {}) as (keyof (typeof rounds)[0]['small'])[])
          out[k] = median(rounds.map((x) => x[side][k]));
        return out;
      };
      const small = figures(smallTarget, 'small');
      const large = figures(largeTarget, 'large');
      const ratios: Record<string, number> = { claimMs: Math.round((large.claimMs / small.claimMs) * 100) / 100 };
      for (const k of Object.keys(rounds[0]?.small ?? {}) as (keyof (typeof rounds)[0]['small'])[])
        ratios[k] = Math.round(median(rounds.map((x) => x.large[k] / x.small[k])) * 100) / 100;
      return { small, large, ratios };
    } finally {
      await largeTarget.stop();
    }
  } finally {
    await smallTarget.stop();
  }
}

export async function benchScale(): Promise<ScaleBench> {
  const stores: ScaleBench['stores'] = {};
  for (const kind of ['sqlite', 'postgres'] as const) {
    try {
      stores[kind] = await measurePair(kind);
    } catch (e) {
      stores[kind] = { skipped: e instanceof Error ? e.message : String(e) };
    }
  }
  return { small: SMALL, large: LARGE, pending: 100_000, stores };
}

runIfMain(import.meta.url, benchScale);
