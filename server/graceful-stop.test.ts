import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../core/clock.js';
import { type CreatedMerchant, createMerchant } from '../core/merchants/merchants.js';
import { unlockStore } from '../core/secrets/unlock.js';
import { migrate, openStore, type Store } from '../core/store/db.js';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { bundleService, type ServiceProcess, spawnService } from './testing/service-process.js';
import { freshStoreUrl } from './testing/store.js';
import { until } from './testing/until.js';

let bundle: { path: string; dispose(): void };
let storeUrl: { url: string; dispose: () => Promise<void> };
let store: Store;
let rcv: TestReceiver;
let merchant: CreatedMerchant;
let svc: ServiceProcess | undefined;

beforeAll(async () => {
  bundle = await bundleService();
  storeUrl = await freshStoreUrl();
  rcv = await startReceiver('x');
  store = openStore(storeUrl.url, { poolSize: 2 });
  await migrate(store);
  // The spawned service finds the same key: no key configured, both use the default key file.
  await unlockStore(store, {}, storeUrl.url);
  merchant = await createMerchant(store.db, systemClock, { name: 'Stop shop', mode: 'test', webhookUrl: rcv.url });
  rcv.secret = merchant.webhook_secret;
}, 60_000);
afterEach(async () => {
  if (svc && svc.child.exitCode === null && svc.child.signalCode === null) svc.child.kill('SIGKILL');
  await svc?.exited;
  svc = undefined;
  rcv.reply = () => ({ status: 200 });
});
afterAll(async () => {
  await store.close();
  await rcv.close();
  bundle.dispose();
  await storeUrl.dispose();
});

async function start(): Promise<ServiceProcess> {
  svc = await spawnService(bundle.path, { DATABASE_URL: storeUrl.url, WEBHOOK_POLL_MS: '200' });
  await svc.listening();
  return svc;
}

async function api(path: string, body: unknown) {
  const res = await fetch(`${svc?.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': merchant.secret_key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return { json: JSON.parse(text), text };
}

/** A payment paid in full on the sandbox chain: three changes, three webhook events. */
async function paidPayment(): Promise<void> {
  const c = await api('/api/v1/payments', { amount: 25, currency: 'ltc', email: 'stop@example.com' });
  const address = c.json.data.blockchain.pay_address;
  const amount = /"pay_amount":([0-9.]+)/.exec(c.text)?.[1] as string;
  await api('/api/v1/sandbox/transfers', { currency: 'ltc', address, amount });
  await api('/api/v1/sandbox/blocks', { network: 'ltc', count: 2 });
}

/** A POST whose body is sent in two parts: the request is in flight until `finish()` is called. */
function slowRequest(url: string, key: string) {
  const body = JSON.stringify({ amount: 10, currency: 'btc', email: 'stop@example.com' });
  const u = new URL(`${url}/api/v1/payments`);
  const req = request({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => {
        text += String(d);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  answered.catch(() => undefined);
  // The headers and the first part are handed to the kernel (the write's callback), then a quick request made after
  // them is answered: the server has read this request by then, however busy the machine (a fixed sleep was not).
  const sent = new Promise<void>((resolve) => req.write(body.slice(0, 5), () => resolve()));
  const inFlight = sent.then(async () => {
    await (await fetch(`${url}/healthz`)).text();
  });
  return { answered, inFlight, finish: () => req.end(body.slice(5)) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SIGTERM', () => {
  it('stops accepting, finishes the request in flight and exits 0', async () => {
    const p = await start();
    const slow = slowRequest(p.url, merchant.secret_key);
    await slow.inFlight;
    const signalled = Date.now();
    p.child.kill('SIGTERM');
    await sleep(300);
    await expect(fetch(`${p.url}/healthz`)).rejects.toThrow();
    slow.finish();
    const answer = await slow.answered;
    expect(answer.status, answer.body).toBe(201);
    expect(await p.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
  }, 30_000);

  it('hands back a webhook attempt still in flight (lease released) and exits within 10 s; a restart delivers it', async () => {
    rcv.reply = () => ({ status: 200, hang: true });
    const p = await start();
    const before = rcv.received.length;
    await api('/api/v1/payments', { amount: 25, currency: 'ltc', email: 'stop@example.com' }); // no webhook: creation is not an event
    await paidPayment();
    await until(
      async () => rcv.received.length,
      (n) => n > before,
    );
    const signalled = Date.now();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    const leased = await store.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'lease_owner'])
      .where('lease_owner', 'is not', null)
      .execute();
    expect(leased).toEqual([]);

    rcv.reply = () => ({ status: 200 });
    await start();
    await until(
      async () => store.db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'succeeded').execute(),
      (rows) => rows.length === 0,
    );
    const first = rcv.received[before]?.headers['x-service-delivery'];
    expect(rcv.received.slice(before + 1).map((r) => r.headers['x-service-delivery'])).toContain(first);
  }, 60_000);

  it('during a webhook burst exits cleanly; after a restart every delivery is made, none twice', async () => {
    rcv.reply = () => ({ status: 200, delayMs: 50 });
    const p = await start();
    const before = rcv.received.length;
    const done = new Set((await store.db.selectFrom('webhook_deliveries').select('id').execute()).map((d) => d.id));
    await Promise.all(Array.from({ length: 8 }, () => paidPayment()));
    const signalled = Date.now();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);

    await start();
    const fresh = await until(
      async () => {
        const rows = await store.db.selectFrom('webhook_deliveries').select(['id', 'status']).execute();
        return rows.filter((r) => !done.has(r.id));
      },
      (rows) => rows.length > 0 && rows.every((r) => r.status === 'succeeded'),
      30_000,
    );
    expect(fresh.length).toBeGreaterThanOrEqual(16);
    const ids = rcv.received.slice(before).map((r) => String(r.headers['x-service-delivery']));
    expect(rcv.received.slice(before).every((r) => r.verified)).toBe(true);
    expect(ids.sort()).toEqual(fresh.map((r) => r.id).sort());
  }, 60_000);

  it('a second SIGTERM exits at once, with a request still in flight', async () => {
    const p = await start();
    const slow = slowRequest(p.url, merchant.secret_key);
    await slow.inFlight;
    p.child.kill('SIGTERM');
    await sleep(500);
    expect(p.child.exitCode).toBeNull();
    const second = Date.now();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(143);
    expect(Date.now() - second).toBeLessThan(1000);
    await expect(slow.answered).rejects.toThrow();
  }, 30_000);
});
