import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipBest } from '../scripts/gzip-best.js';
import { freshStoreUrl } from '../server/testing/store.js';
import { runIfMain } from './standalone.js';
import { median } from './stats.js';
import { startTarget } from './target-process.js';

/** The dashboard's JS+CSS budget, gzipped (issue 11). */
export const DASHBOARD_BUDGET = 60 * 1024;
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface DashboardBench {
  bundle: { js: number; css: number; total: number; budget: number };
  stores: Record<
    string,
    | {
        seeded: number;
        firstPageMs: number;
        orderSearchMs: number;
        txidSearchMs: number;
        statusFilterMs: number;
        /** Issue 23: the overview's figures, and searches by what the list shows. */
        overviewMs: number;
        shownIdSearchMs: number;
        emailSearchMs: number;
        filteredSearchMs: number;
        amountSortMs: number;
      }
    | { skipped: string }
  >;
}

/** The built dashboard's JS and CSS, gzipped as served. */
async function bundleBytes(): Promise<DashboardBench['bundle']> {
  execSync('npx vite build -c dashboard/vite.config.ts', { stdio: 'ignore' });
  const dir = 'public/dashboard/assets';
  let js = 0;
  let css = 0;
  for (const f of readdirSync(dir)) {
    const n = (await gzipBest(readFileSync(`${dir}/${f}`))).length;
    if (f.endsWith('.js')) js += n;
    else if (f.endsWith('.css')) css += n;
  }
  return { js, css, total: js + css, budget: DASHBOARD_BUDGET };
}

/**
 * Median milliseconds of `runs` sequential requests over one keep-alive connection, from request to the last byte
 * of the answer: the service's whole handling plus a loopback round trip (an upper bound of the server-side time).
 */
async function timeRequests(url: string, cookie: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs + 10; i++) {
    const t0 = performance.now();
    const r = await fetch(url, { headers: { cookie } });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
    if (i >= 10) times.push(performance.now() - t0);
  }
  return Math.round(median(times) * 100) / 100;
}

async function measureStore(kind: 'sqlite' | 'postgres') {
  if (kind === 'postgres') process.env.TEST_DATABASE_URL = pgUrl;
  else delete process.env.TEST_DATABASE_URL;
  const store = await freshStoreUrl();
  const target = await startTarget('bench/dashboard-target.ts', { DATABASE_URL: store.url });
  try {
    const base = `http://127.0.0.1:${target.info.port}/dashboard/api`;
    const signIn = await fetch(`${base}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench password 1' }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const list = `${base}/merchants/${target.info.merchantId}/payments`;
    const runs = 200;
    const paymentId = String(target.info.paymentId);
    const email = String(target.info.email);
    return {
      seeded: Number(process.env.SEED_PAYMENTS ?? '100000'),
      firstPageMs: await timeRequests(`${list}?limit=50`, cookie, runs),
      orderSearchMs: await timeRequests(`${list}?q=${target.info.orderId}`, cookie, runs),
      txidSearchMs: await timeRequests(`${list}?q=${target.info.txid}`, cookie, runs),
      statusFilterMs: await timeRequests(`${list}?status=partially_paid&asset=LTC`, cookie, runs),
      overviewMs: await timeRequests(`${base}/merchants/${target.info.merchantId}/overview`, cookie, runs),
      // The id as the list shows it (format.ts short(id, 8)), the start alone, an e-mail in another letter case.
      shownIdSearchMs: await timeRequests(
        `${list}?q=${encodeURIComponent(`${paymentId.slice(0, 8)}…${paymentId.slice(-8)}`)}`,
        cookie,
        runs,
      ),
      emailSearchMs: await timeRequests(`${list}?q=${encodeURIComponent(email)}`, cookie, runs),
      filteredSearchMs: await timeRequests(
        `${list}?status=finished&from=2000-01-01&q=${paymentId.slice(0, 9)}`,
        cookie,
        runs,
      ),
      amountSortMs: await timeRequests(`${list}?status=finished&asset=BTC&sort=amount_desc`, cookie, runs),
    };
  } finally {
    await target.stop();
    await store.dispose();
  }
}

/** The dashboard part of `npm run bench`: bundle size, and the payment list at 100,000 payments on both stores. */
export async function benchDashboard(): Promise<DashboardBench> {
  const bundle = await bundleBytes();
  const stores: DashboardBench['stores'] = {};
  for (const kind of ['sqlite', 'postgres'] as const) {
    try {
      stores[kind] = await measureStore(kind);
    } catch (e) {
      stores[kind] = { skipped: e instanceof Error ? e.message : String(e) };
    }
  }
  return { bundle, stores };
}

runIfMain(import.meta.url, benchDashboard);
