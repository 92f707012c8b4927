import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { insertDeposit } from '../core/payments/deposits.js';
import { findPayment, insertPayment } from '../core/payments/store.js';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { type DashClient, userOf } from './testing/client.js';

let t: TestService;
let receiver: TestReceiver;
let owner: DashClient;
let base: string;

beforeAll(async () => {
  receiver = await startReceiver('');
  const chains = join(tmpdir(), `chains-dash-${process.pid}.json`);
  writeFileSync(
    chains,
    JSON.stringify({
      networks: {
        eth: { rpcUrl: 'http://127.0.0.1:1', chainId: 1, confirmations: 2, explorerUrl: 'https://etherscan.example/' },
      },
    }),
  );
  t = await startTestService({ start: true, webhookUrl: receiver.url, env: { CHAINS_CONFIG: chains } });
  receiver.secret = t.merchant.webhook_secret;
  owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
  base = `/merchants/${t.merchant.merchant_id}`;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function pay(currency: string, orderId: string, amount?: string) {
  const p = (
    await t.api('/api/v1/payments', { body: { amount: 20, currency, email: 'b@buyer.example', order_id: orderId } })
  ).json.data;
  await t.api('/api/v1/sandbox/transfers', {
    body: { currency, address: p.blockchain.pay_address, amount: amount ?? String(p.blockchain.pay_amount) },
  });
  const tx = (
    await t.service.deps.db
      .selectFrom('deposits')
      .select('txid')
      .where('payment_id', '=', p.payment.payment_id)
      .executeTakeFirst()
  )?.txid;
  await t.api('/api/v1/sandbox/blocks', { body: { count: 2, network: p.blockchain.network } });
  return { id: p.payment.payment_id as string, address: p.blockchain.pay_address as string, txid: tx as string };
}

describe('payments', () => {
  it('lists newest first in keyset pages, filtered by status and asset, searched by payment id, order id, address and txid', async () => {
    const a = await pay('BTC', 'order-a');
    const b = await pay('LTC', 'order-b');
    await t.api('/api/v1/payments', {
      body: { amount: 20, currency: 'btc', email: 'c@buyer.example', order_id: 'order-c' },
    });
    const all = (await owner.call(`${base}/payments?limit=2`)).json.data;
    expect(all.payments.map((p: { order_id: string }) => p.order_id)).toEqual(['order-c', 'order-b']);
    const next = (await owner.call(`${base}/payments?limit=2&cursor=${all.next_cursor}`)).json.data;
    expect(next.payments.map((p: { order_id: string }) => p.order_id)).toEqual(['order-a']);
    expect(next.next_cursor).toBeNull();
    const ids = async (q: string) =>
      (await owner.call(`${base}/payments?${q}`)).json.data.payments.map((p: { payment_id: string }) => p.payment_id);
    expect(await ids('status=finished&asset=ltc')).toEqual([b.id]);
    expect(await ids('status=waiting')).toHaveLength(1);
    expect(await ids(`q=${a.id}`)).toEqual([a.id]);
    expect(await ids('q=order-b')).toEqual([b.id]);
    expect(await ids(`q=${encodeURIComponent(a.address)}`)).toEqual([a.id]);
    expect(await ids(`q=${b.txid}`)).toEqual([b.id]);
    expect(await ids('q=nothing-like-it')).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids(`from=${today}&to=${today}`)).toHaveLength(3);
    expect(await ids('to=2000-01-01')).toEqual([]);
    // Amounts are exact decimal strings.
    const row = (await owner.call(`${base}/payments?q=order-a`)).json.data.payments[0];
    expect(typeof row.pay_amount).toBe('string');
    expect(row.actually_paid).toBe(row.pay_amount);
  });

  it('refuses bad list queries with 422 per field', async () => {
    const r = await owner.call(`${base}/payments?status=paid&from=yesterday&limit=0&extra=1`);
    expect(r.status).toBe(422);
    expect(Object.keys(r.json.errors).sort()).toEqual(['extra', 'from', 'limit', 'status']);
    expect((await owner.call(`${base}/payments?cursor=bm9wZQ`)).status).toBe(422);
    expect((await owner.call(`${base}/payments?q=a&q=b`)).status).toBe(422);
  });

  it('shows a payment: timeline with sequences, deposits with confirmations, deliveries with attempts; refund is recorded and sent', async () => {
    const { id, txid } = await pay('LTC', 'order-detail', '0.1');
    await receiver.waitFor((all) =>
      all.some((w) => w.json?.payment?.payment_id === id && w.json.payment.payment_status === 'partially_paid'),
    );
    const d = (await owner.call(`${base}/payments/${id}`)).json.data;
    expect(d.payment).toMatchObject({
      payment_id: id,
      payment_status: 'partially_paid',
      status_detail: 'underpaid',
      overpaid_by: null,
    });
    expect(d.payment.underpaid_by).toMatch(/^\d+\.\d+$/);
    expect(
      d.timeline.map((e: { sequence: number; payment_status: string }) => `${e.sequence}:${e.payment_status}`),
    ).toEqual(['1:waiting', '2:confirming', '3:partially_paid']);
    expect(d.deposits).toEqual([
      expect.objectContaining({
        txid,
        amount: '0.1',
        asset: 'LTC',
        confirmations: 2,
        required_confirmations: 2,
        late: false,
        explorer_url: null,
      }),
    ]);
    expect(d.deliveries.length).toBeGreaterThanOrEqual(1);
    expect(d.deliveries[0].attempts[0]).toMatchObject({ response_code: 200 });

    const waiting = (
      await t.api('/api/v1/payments', { body: { amount: 20, currency: 'btc', email: 'w@buyer.example' } })
    ).json.data.payment.payment_id;
    const refused = await owner.call(`${base}/payments/${waiting}/refund`, { body: {} });
    expect(refused.status).toBe(400);
    expect((await findPayment(t.service.deps.db, waiting))?.sequence).toBe(1);

    const done = await owner.call(`${base}/payments/${id}/refund`, { body: {} });
    expect(done.json.data.payment_status).toBe('refunded');
    await receiver.waitFor((all) =>
      all.some((w) => w.verified && w.json?.payment?.payment_id === id && w.json.payment.payment_status === 'refunded'),
    );
    expect((await owner.call(`${base}/payments/pay_doesnotexist`)).status).toBe(404);
    expect((await owner.call(`${base}/payments/..%2F..%2Fsession`)).status).toBe(404);
  });

  it('streams new payments and their changes of this merchant only (SSE)', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${t.url}/dashboard/api${base}/events`, {
      headers: { cookie: owner.cookie },
      signal: ctrl.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const until = async (pred: () => boolean) => {
      while (!pred()) text += new TextDecoder().decode((await reader.read()).value);
    };
    await until(() => text.includes(': connected'));
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    await t.api('/api/v1/payments', {
      key: other.secret_key,
      body: { amount: 9, currency: 'btc', email: 'o@x.example', order_id: 'not-mine' },
    });
    const { id } = await pay('BTC', 'streamed');
    await until(() => text.includes('"payment_status":"finished"'));
    ctrl.abort();
    const events = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map(
        (l) => JSON.parse(l.slice(6)) as { change: string; payment: { payment_id: string; payment_status: string } },
      );
    expect(events[0]).toMatchObject({ change: 'created', payment: { payment_id: id, payment_status: 'waiting' } });
    expect(events.some((e) => e.change === 'state' && e.payment.payment_status === 'finished')).toBe(true);
    expect(text).not.toContain('not-mine');
  });

  it('exports a date range as CSV with exact amounts and formula-proof cells', async () => {
    await t.api('/api/v1/payments', {
      body: { amount: 20, currency: 'btc', email: 'x@buyer.example', order_id: '=HYPERLINK("x")' },
    });
    const today = new Date().toISOString().slice(0, 10);
    const r = await owner.call(`${base}/exports/payments.csv?from=${today}&to=${today}`);
    expect(r.headers.get('content-type')).toMatch(/text\/csv/);
    expect(r.headers.get('content-disposition')).toMatch(
      /attachment; filename="payments-mer_\w+-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv"/,
    );
    const lines = r.text.trim().split('\r\n');
    expect(lines[0]?.split(',')).toContain('pay_amount');
    expect(lines.length).toBeGreaterThan(5);
    expect(r.text).toContain(`"'=HYPERLINK(""x"")"`);
    expect((await owner.call(`${base}/exports/payments.csv?from=2026-13-40&to=${today}`)).status).toBe(422);
  });

  it('writes money in the CSV as exact text: USD with two decimals (42.50), the asset amount as the API gives it', async () => {
    const created = (
      await t.api('/api/v1/payments', {
        body: { amount: 42.5, currency: 'ltc', email: 'csv@buyer.example', order_id: 'csv-money' },
      })
    ).json.data;
    const r = await owner.call(`${base}/exports/payments.csv?q=csv-money`);
    const [head = '', row = ''] = r.text.trim().split('\r\n');
    const cells = Object.fromEntries(
      head.split(',').map((k, i) => [k, JSON.parse(row.split(',')[i] ?? '""') as string]),
    );
    expect(cells.price_amount).toBe('42.50');
    expect(cells.price_currency).toBe('USD');
    expect(cells.pay_amount).toBe(String(created.pricing.pay_amount));
    expect(cells.pay_currency).toBe('LTC');
  });

  it('links a live deposit to the network explorer configured for it', async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Live', mode: 'live' });
    const liveOwner = await userOf(t, live.merchant_id, 'live-owner@shop.example');
    const now = Date.now();
    const id = 'pay_livedeposit';
    const template = await findPayment(
      t.service.deps.db,
      (await t.api('/api/v1/payments?limit=1')).json.data.payments[0].payment_id,
    );
    if (!template) throw new Error('no payment to copy');
    await insertPayment(t.service.deps.db, {
      ...template,
      id,
      merchant_id: live.merchant_id,
      mode: 'live',
      pay_currency: 'ETH',
      network: 'eth',
      decimals: 18,
      precision: 18,
    });
    const txid = `0x${'ab'.repeat(32)}`;
    await insertDeposit(t.service.deps.db, {
      id: 'dep_live',
      payment_id: id,
      network: 'live:eth',
      txid,
      log_index: -1,
      asset: 'ETH',
      amount_units: '1500000000000000000',
      block_height: null,
      block_hash: null,
      first_seen_at: now,
      late: 1,
      removed: 0,
      updated_at: now,
    });
    const d = (await liveOwner.call(`/merchants/${live.merchant_id}/payments/${id}`)).json.data;
    expect(d.deposits[0]).toMatchObject({
      amount: '1.5',
      late: true,
      explorer_url: `https://etherscan.example/tx/${txid}`,
    });
    const nets = (await liveOwner.call(`/merchants/${live.merchant_id}/networks`)).json.data;
    expect(nets).toEqual([expect.objectContaining({ network: 'eth', healthy: false, confirmations: 2 })]);
  });
});

describe('keys, webhooks, settings, try', () => {
  it('creates, rotates and deactivates keys (each shown once); records last use without a write per request', async () => {
    const created = await owner.call(`${base}/keys`, { body: { kind: 'secret' } });
    expect(created.status).toBe(201);
    const key: string = created.json.data.key;
    for (let i = 0; i < 5; i++) expect((await t.api('/api/v1/balances', { key })).status).toBe(200);
    await t.service.deps.keyUsage.flush();
    const listed = (await owner.call(`${base}/keys`)).json.data.find(
      (k: { id: string }) => k.id === created.json.data.id,
    );
    expect(listed.last_used_at).not.toBeNull();
    expect(JSON.stringify((await owner.call(`${base}/keys`)).json)).not.toContain(key);
    const rotated = await owner.call(`${base}/keys/${created.json.data.id}/rotate`, { body: { grace_hours: 0 } });
    expect((await t.api('/api/v1/balances', { key })).status).toBe(401);
    expect((await t.api('/api/v1/balances', { key: rotated.json.data.key })).status).toBe(200);
    expect((await owner.call(`${base}/keys/${rotated.json.data.id}/deactivate`, { body: {} })).status).toBe(200);
    expect((await t.api('/api/v1/balances', { key: rotated.json.data.key })).status).toBe(401);
    expect((await owner.call(`${base}/keys/${rotated.json.data.id}/deactivate`, { body: {} })).status).toBe(404);
    expect((await owner.call(`${base}/keys`, { body: { kind: 'root' } })).status).toBe(422);
  });

  it('saves a webhook URL under the SSRF rules of the merchant’s mode, and writes nothing when refused', async () => {
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Live hooks', mode: 'live' });
    const lo = await userOf(t, live.merchant_id, 'hooks@shop.example');
    const path = `/merchants/${live.merchant_id}/webhook-endpoint`;
    for (const url of [
      'http://93.184.216.34/h',
      'https://10.0.0.5/h',
      'https://[::ffff:127.0.0.1]/h',
      'https://user:pw@93.184.216.34/h',
    ]) {
      const r = await lo.call(path, { method: 'PUT', body: { url } });
      expect(r.status, url).toBe(422);
      expect(r.json.errors.url).toHaveLength(1);
    }
    expect((await lo.call(path)).json.data.url).toBeNull();
    expect((await lo.call(path, { method: 'PUT', body: { url: 'https://93.184.216.34/h' } })).json.data.url).toBe(
      'https://93.184.216.34/h',
    );
    const rotated = await lo.call(`${path}/rotate-secret`, { body: {} });
    expect(rotated.json.data.webhook_secret).toMatch(/^whsec_/);
    expect(JSON.stringify((await lo.call(path)).json)).not.toContain(rotated.json.data.webhook_secret);
    // A test merchant may use http on loopback; a test event goes out and is followed.
    const sent = await owner.call(`${base}/webhook-deliveries/test`, { body: {} });
    expect(sent.status).toBe(202);
    await receiver.waitFor((all) => all.some((w) => w.json?.test === true && w.verified));
    const followed = await owner.call(`${base}/webhook-deliveries/${sent.json.data.delivery_id}`);
    expect(followed.json.data.test).toBe(true);
    await expect
      .poll(async () => (await owner.call(`${base}/webhook-deliveries/${sent.json.data.delivery_id}`)).json.data.status)
      .toBe('succeeded');
    expect(
      (await owner.call(`${base}/webhook-deliveries?status=succeeded`)).json.data.deliveries.length,
    ).toBeGreaterThan(0);
  });

  it('settings: name and origins, xpub preview (xprv refused unechoed), xpub only for live merchants', async () => {
    const bad = await owner.call(`${base}/settings`, {
      method: 'PATCH',
      body: { name: '', allowed_origins: ['https://a.example/path'] },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['allowed_origins.0', 'name']);
    expect((await owner.call(`${base}/settings`)).json.data.name).toBe('Test shop');
    const xprv =
      'xprv9yeny6n2dNUokQFykGoZU6BDLeKbEBUoBeCFe2VF6MXdrHrprMYRc4tddncDRxrJCy7GtPDk68zRcgWtGFveqdCV5NyhZwVgMoZVbTm78vx';
    const refused = await owner.call(`${base}/xpub/preview`, { body: { xpub: xprv } });
    expect(refused.status).toBe(422);
    expect(refused.text).not.toContain(xprv);
    const xpub =
      'xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP';
    const preview = await owner.call(`${base}/xpub/preview`, { body: { xpub } });
    expect(preview.json.data.addresses.map((a: { address: string }) => a.address)).toEqual([
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    ]);
    expect((await owner.call(`${base}/xpub`, { method: 'PUT', body: { xpub } })).status).toBe(400);
  });

  it('try the checkout: a session created server-side for a test merchant opens in the drop-in API; live and viewers are refused', async () => {
    const r = await owner.call(`${base}/checkout-sessions`, { body: { amount: 12.5, crypto_currency: 'btc' } });
    expect(r.status).toBe(201);
    const session = await fetch(`${t.url}/api/dropin/v1/sessions/${r.json.data.session_token}`);
    const body = (await session.json()) as {
      data: { session: { test_mode: boolean }; payment: { pay_currency: string } };
    };
    expect(body.data.session.test_mode).toBe(true);
    expect(body.data.payment.pay_currency).toBe('BTC');
    expect((await owner.call(`${base}/checkout-sessions`, { body: { amount: -1 } })).status).toBe(422);
    const live = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Live try', mode: 'live' });
    const lo = await userOf(t, live.merchant_id, 'try@shop.example');
    const refused = await lo.call(`/merchants/${live.merchant_id}/checkout-sessions`, { body: { amount: 10 } });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/test merchant/);
  });
});
