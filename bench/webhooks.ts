import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freshStoreUrl } from '../server/testing/store.js';
import { runIfMain } from './standalone.js';
import { startTarget } from './target-process.js';

export interface WebhookFigures {
  /** Deliveries per second from a queue of `queued` rows to a local receiver answering 200. */
  deliveriesPerSecond: number;
  /** PostgreSQL only: the same drain on a table never analyzed (the first minute of a fresh database). */
  deliveriesPerSecondBeforeFirstAnalyze?: number;
  queued: number;
  /** From sending the sandbox block that finishes a payment to the receiver holding the verified event. */
  latencyMs: { p50: number; p99: number; max: number; samples: number };
  badSignatures: number;
}

export interface WebhookBench {
  targets: { deliveriesPerSecond: number; p50Ms: number };
  stores: Record<string, WebhookFigures | { skipped: string }>;
}

type Waiter = { paymentId: string; resolve: (at: number) => void };

/** A receiver answering 200, checking every signature with node:crypto; it tells waiters when a payment finishes. */
async function startReceiver() {
  let secret = '';
  let received = 0;
  let bad = 0;
  const waiters: Waiter[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks);
      const ts = String(req.headers['x-service-timestamp']);
      const sig = Buffer.from(String(req.headers['x-service-signature']));
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex')}`,
      );
      res.writeHead(200).end();
      if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) {
        bad++;
        return;
      }
      received++;
      const ev = JSON.parse(body.toString('utf8')) as { payment: { payment_id: string; payment_status: string } };
      if (ev.payment.payment_status !== 'finished') return;
      const i = waiters.findIndex((w) => w.paymentId === ev.payment.payment_id);
      if (i >= 0) waiters.splice(i, 1)[0]?.resolve(at);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    setSecret: (s: string) => {
      secret = s;
    },
    count: () => received,
    bad: () => bad,
    finished: (paymentId: string) => new Promise<number>((resolve) => waiters.push({ paymentId, resolve })),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function percentile(sorted: number[], p: number): number {
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0) * 100) / 100;
}

async function runOn(databaseUrl: string, queued: number, samples: number): Promise<WebhookFigures> {
  const rcv = await startReceiver();
  const target = await startTarget('bench/webhooks-target.ts', { DATABASE_URL: databaseUrl, RECEIVER_URL: rcv.url });
  const base = `http://127.0.0.1:${target.info.port}/api/v1`;
  const key = String(target.info.key);
  rcv.setSecret(String(target.info.secret));
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
    return { json: JSON.parse(text), text };
  };
  try {
    // Latency: a payment sits at 1 confirmation; the block that finishes it is timed to the verified event.
    const lat: number[] = [];
    for (let i = 0; i < samples + 5; i++) {
      const c = await call('/payments', { amount: 50, currency: 'btc', email: 'bench@example.com' });
      const amount = /"pay_amount":([0-9.]+)/.exec(c.text)?.[1];
      await call('/sandbox/transfers', { currency: 'btc', address: c.json.data.blockchain.pay_address, amount });
      await call('/sandbox/blocks', { network: 'btc' });
      const done = rcv.finished(c.json.data.payment.payment_id);
      const t0 = performance.now();
      await call('/sandbox/blocks', { network: 'btc' });
      const t1 = await done;
      if (i >= 5) lat.push(t1 - t0); // the first few warm up connections and JIT
    }
    lat.sort((a, b) => a - b);

    // Throughput: queue test events while the endpoint is disabled, release them at once, time the drain.
    const drain = async (analyze: boolean) => {
      const before = rcv.count();
      await setEndpointEnabled(databaseUrl, String(target.info.merchantId), false);
      for (let i = 0; i < queued; i += 50)
        await Promise.all(Array.from({ length: Math.min(50, queued - i) }, () => call('/webhook-deliveries/test')));
      if (analyze) await analyzeStore(databaseUrl);
      const t0 = performance.now();
      await call('/webhook-endpoint/enable');
      while (rcv.count() - before < queued) await sleep(5);
      return Math.round(queued / ((performance.now() - t0) / 1000));
    };
    const cold = await drain(false);
    // PostgreSQL plans the claim query from table statistics; a brand-new table has none until autovacuum runs.
    const analyzed = databaseUrl.startsWith('postgres') ? await drain(true) : undefined;
    return {
      deliveriesPerSecond: analyzed ?? cold,
      ...(analyzed !== undefined ? { deliveriesPerSecondBeforeFirstAnalyze: cold } : {}),
      queued,
      latencyMs: {
        p50: percentile(lat, 50),
        p99: percentile(lat, 99),
        max: Math.round((lat.at(-1) ?? 0) * 100) / 100,
        samples: lat.length,
      },
      badSignatures: rcv.bad(),
    };
  } finally {
    await target.stop();
    await rcv.close();
  }
}

async function analyzeStore(databaseUrl: string): Promise<void> {
  const { sql } = await import('kysely');
  const { openStore } = await import('../core/store/db.js');
  const store = openStore(databaseUrl, { poolSize: 1 });
  try {
    await sql`analyze webhook_deliveries`.execute(store.db);
  } finally {
    await store.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Flips the endpoint switch straight in the store (the operator's `webhook enable` does the reverse). */
async function setEndpointEnabled(databaseUrl: string, merchantId: string, enabled: boolean): Promise<void> {
  const { openStore } = await import('../core/store/db.js');
  const store = openStore(databaseUrl, { poolSize: 1 });
  try {
    await store.db
      .updateTable('merchants')
      .set({ webhook_enabled: enabled ? 1 : 0 })
      .where('id', '=', merchantId)
      .execute();
  } finally {
    await store.close();
  }
}

/**
 * Issue 3 benchmark, in one run per store: deliveries per second to a local receiver answering 200, and the
 * latency from the sandbox block that finishes a payment to the receiver holding the verified event (p50/p99).
 * Targets: >= 1,000 deliveries/s, p50 < 50 ms.
 */
export async function benchWebhooks(
  opts: { queued?: number; samples?: number; pgUrl?: string; only?: 'sqlite' | 'postgres' } = {},
): Promise<WebhookBench> {
  const queued = opts.queued ?? Number(process.env.BENCH_WEBHOOKS ?? '5000');
  const samples = opts.samples ?? 200;
  const only = opts.only ?? (process.env.BENCH_WEBHOOK_STORE as 'sqlite' | 'postgres' | undefined);
  const stores: WebhookBench['stores'] = {};
  if (only !== 'postgres') {
    const sqlite = await freshStoreUrl();
    try {
      stores.sqlite = await runOn(sqlite.url, queued, samples);
    } finally {
      await sqlite.dispose();
    }
  }
  if (only === 'sqlite') return { targets: { deliveriesPerSecond: 1000, p50Ms: 50 }, stores };
  const pgUrl = opts.pgUrl ?? process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const saved = process.env.TEST_DATABASE_URL;
  try {
    process.env.TEST_DATABASE_URL = pgUrl;
    const pgStore = await freshStoreUrl();
    try {
      stores.postgres = await runOn(pgStore.url, queued, samples);
    } finally {
      await pgStore.dispose();
    }
  } catch (e) {
    stores.postgres = { skipped: e instanceof Error ? e.message : String(e) };
  } finally {
    if (saved === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = saved;
  }
  return { targets: { deliveriesPerSecond: 1000, p50Ms: 50 }, stores };
}

runIfMain(import.meta.url, benchWebhooks);
