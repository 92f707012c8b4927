import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStoreUrl } from '../../server/testing/store.js';
import { systemClock } from '../clock.js';
import { createMerchant } from '../merchants/merchants.js';
import { unlockStore } from '../secrets/unlock.js';
import { migrate, openStore } from '../store/db.js';
import { freePort } from '../testing/free-port.js';
import { startReceiver, type TestReceiver } from './testing/receiver.js';

let storeUrl: { url: string; dispose: () => Promise<void> };
let rcv: TestReceiver;
let secretKey = '';
let port = 0;
let child: ChildProcess | undefined;
const base = () => `http://127.0.0.1:${port}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The real service, as `npm start` runs it, in its own process group so SIGKILL takes npx, tsx and node at once. */
async function startService(): Promise<void> {
  child = spawn('npx', ['tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: storeUrl.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_SECOND: '0',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_POLL_MS: '200',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const end = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base()}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error('service did not come up');
    await sleep(50);
  }
}

async function killService(): Promise<void> {
  const c = child;
  if (!c?.pid) return;
  const exited = new Promise<void>((r) => c.once('exit', () => r()));
  process.kill(-c.pid, 'SIGKILL');
  await exited;
  child = undefined;
}

async function api(path: string, body?: unknown) {
  const res = await fetch(`${base()}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': secretKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return { json: JSON.parse(text), text };
}

/** Moves payments through the sandbox until told to stop; a request cut by a kill just moves on. */
async function driver(stop: { now: boolean }, n: number): Promise<void> {
  const currencies = ['btc', 'ltc', 'doge', 'eth'];
  let i = 0;
  while (!stop.now) {
    try {
      const cur = currencies[(n + i++) % currencies.length] as string;
      const c = await api('/api/v1/payments', { amount: 20 + n, currency: cur, email: 'crash@example.com' });
      const d = c.json.data;
      const amount = /"pay_amount":([0-9.]+)/.exec(c.text)?.[1] as string;
      const network = d.blockchain.network as string;
      if (i % 3 === 0) {
        // A short payment first (partially_paid), topped up later: more kinds of change.
        await api('/api/v1/sandbox/transfers', { currency: cur, address: d.blockchain.pay_address, amount: '0.0001' });
        await api('/api/v1/sandbox/blocks', { network, count: 2 });
      }
      await api('/api/v1/sandbox/transfers', { currency: cur, address: d.blockchain.pay_address, amount });
      await api('/api/v1/sandbox/blocks', { network });
      await api('/api/v1/sandbox/blocks', { network });
    } catch {
      await sleep(30);
    }
  }
}

beforeAll(async () => {
  storeUrl = await freshStoreUrl();
  rcv = await startReceiver('x');
  // Answers take a little while, so kills also land while deliveries are in flight.
  rcv.reply = () => ({ status: 200, delayMs: Math.floor(Math.random() * 25) });
  const store = openStore(storeUrl.url);
  await migrate(store);
  // The spawned service finds the same key: no key configured, both use the default key file.
  await unlockStore(store, {}, storeUrl.url);
  const m = await createMerchant(store.db, systemClock, { name: 'Crash shop', mode: 'test', webhookUrl: rcv.url });
  await store.close();
  rcv.secret = m.webhook_secret;
  secretKey = m.secret_key;
  port = await freePort();
});
afterAll(async () => {
  await killService();
  await rcv?.close();
  await storeUrl?.dispose();
});

describe('crash safety', () => {
  it('SIGKILLed at random moments and restarted, the service loses no event and sends exactly one per change', async () => {
    const stop = { now: false };
    const drivers = [0, 1, 2, 3].map((n) => driver(stop, n));
    for (let round = 0; round < 6; round++) {
      await startService();
      await sleep(300 + Math.floor(Math.random() * 1200));
      await killService();
    }
    await startService();
    await sleep(1500);
    stop.now = true;
    await Promise.all(drivers);

    const store = openStore(storeUrl.url, { poolSize: 2 });
    try {
      const events = await store.db
        .selectFrom('payment_events')
        .select(['id', 'payment_id', 'sequence', 'payload'])
        .execute();
      expect(events.length, 'payments moved while the service was being killed').toBeGreaterThan(20);
      // Deliveries of rows leased by killed processes go out once their leases (timeout + 5 s) run out.
      await rcv.waitFor(
        (all) =>
          new Set(all.filter((x) => x.verified).map((x) => x.headers['x-service-delivery'])).size >= events.length,
        90_000,
      );
      await expect
        .poll(
          async () =>
            (await store.db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'succeeded').execute())
              .length,
          { timeout: 30_000 },
        )
        .toBe(0);

      const deliveries = await store.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'event_id', 'payload'])
        .execute();
      // One delivery per event, and every event received at least once, byte for byte, correctly signed.
      expect(deliveries).toHaveLength(events.length);
      expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(events.map((e) => e.id)));
      const byDelivery = new Map(deliveries.map((d) => [d.id, d]));
      const received = new Set<string>();
      for (const r of rcv.received) {
        expect(r.verified).toBe(true);
        const id = String(r.headers['x-service-delivery']);
        expect(r.body).toBe(byDelivery.get(id)?.payload);
        received.add(id);
      }
      expect(received).toEqual(new Set(byDelivery.keys()));

      // Exactly one event per change: each payment's events are sequences 2..sequence, no gap, no repeat.
      const payments = await store.db.selectFrom('payments').select(['id', 'sequence']).execute();
      const seqs = new Map<string, number[]>();
      for (const e of events) seqs.set(e.payment_id, [...(seqs.get(e.payment_id) ?? []), e.sequence]);
      for (const p of payments) {
        const got = (seqs.get(p.id) ?? []).sort((a, b) => a - b);
        expect(got, p.id).toEqual(Array.from({ length: p.sequence - 1 }, (_, k) => k + 2));
      }
      const duplicates = rcv.received.length - received.size;
      process.stdout.write(
        `crash-safety: ${payments.length} payments, ${events.length} events, ${rcv.received.length} requests received (${duplicates} repeats after kills)\n`,
      );
    } finally {
      await store.close();
    }
  }, 300_000);
});
