import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashClient, userOf } from '../../dashboard-api/testing/client.js';
import { buildService, type Service } from '../../server/service.js';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { rawNumber, until } from '../../server/testing/until.js';
import { startRatesServer } from '../chains/evm/testing/rates-server.js';
import { ManualClock } from '../clock.js';
import { startRelay, type TestRelay } from '../mail/testing/relay.js';
import { createMerchant } from '../merchants/merchants.js';
import { fromUnits, toUnits } from '../money/decimal.js';
import { shippedTestRates } from '../pricing/fixed-rates.js';

/*
 * Merchant notifications to dashboard members (issue 29, item 4), through a real SMTP relay, on a clock the test
 * moves: immediate mails per payment event, a daily digest at its hour (one, with two service instances on the
 * store), the webhook endpoint switched off, prices stale once per episode.
 */

const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
let t: TestService;
let relay: TestRelay;
let gone: Server;
let rates: { url: string; close(): Promise<void> } | undefined;
const chainsFile = join(tmpdir(), `chains-notify-${process.pid}.json`);

beforeAll(async () => {
  relay = await startRelay();
  gone = createServer((_req, res) => res.writeHead(410).end('gone'));
  await new Promise<void>((r) => gone.listen(0, '127.0.0.1', () => r()));
  rates = await startRatesServer(
    Object.fromEntries(Object.entries(shippedTestRates).map(([id, usd]) => [id, Number(usd)])),
  );
  // A live network whose node is down: enough for the live price source to run (and go stale).
  writeFileSync(
    chainsFile,
    JSON.stringify({ networks: { eth: { rpcUrl: 'http://127.0.0.1:1', chainId: 1, confirmations: 2 } } }),
  );
  t = await startTestService({
    clock,
    start: true,
    env: {
      SMTP_URL: relay.url,
      MAIL_FROM: 'Payments <payments@shop.example>',
      MAIL_POLL_MS: '50',
      EXPIRY_SWEEP_MS: '20',
      NOTIFY_DIGEST_HOUR: '7',
      NOTIFY_CHECK_MS: '50',
      CHAINS_CONFIG: chainsFile,
      RATES_BASE_URL: rates.url,
      RATES_STALE_SECONDS: '60',
      RATES_REFRESH_SECONDS: '1',
    },
    overrides: { mailTls: { ca: relay.ca } },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await relay?.close();
  await rates?.close();
  await new Promise<void>((r) => gone.close(() => r()));
  rmSync(chainsFile, { force: true });
});

const mailsTo = (to: string) => relay.accepted().filter((m) => JSON.stringify(m.parsed.to).includes(to));
const waitMails = (to: string, n: number) =>
  until(
    async () => mailsTo(to),
    (ms) => ms.length >= n,
  );
/** Nothing more arrives for a while: the dispatcher polls every 50 ms, so a second is many passes. */
const settle = () => new Promise((r) => setTimeout(r, 1000));

async function choose(c: DashClient, merchantId: string, events: string[], delivery: 'immediate' | 'digest') {
  const r = await c.call(`/account/notifications/${merchantId}`, { method: 'PUT', body: { events, delivery } });
  expect(r.status, r.text).toBe(200);
}

async function pay(key: string, p: { address: string; currency: string; network: string }, amount: string) {
  const tr = await t.api('/api/v1/sandbox/transfers', {
    key,
    body: { currency: p.currency, address: p.address, amount },
  });
  expect(tr.status, tr.text).toBeLessThan(300);
  await t.api('/api/v1/sandbox/blocks', { key, body: { network: p.network, count: 2 } });
}

async function create(key: string, amount = 40, currency = 'btc') {
  const c = await t.api('/api/v1/payments', { key, body: { amount, currency, email: 'buyer@example.com' } });
  expect(c.status, c.text).toBe(201);
  return {
    id: c.json.data.payment.payment_id as string,
    due: rawNumber(c.text, 'pay_amount'),
    address: c.json.data.blockchain.pay_address as string,
    network: c.json.data.blockchain.network as string,
    currency,
  };
}

const status = async (id: string) => (await t.api(`/api/v1/payments/${id}`)).json.data;

describe('merchant notifications', () => {
  it('refuses a cashier: the point of sale shows no payments, webhooks or relayer, so neither do its mails', async () => {
    const m = t.merchant.merchant_id;
    const cashier = await userOf(t, m, 'till@shop.example', 'cashier');
    const put = await cashier.call(`/account/notifications/${m}`, {
      method: 'PUT',
      body: { events: ['payment_finished'], delivery: 'immediate' },
    });
    expect(put.status, put.text).toBe(403);
    expect((await cashier.call(`/account/notifications/${m}`)).status).toBe(403);
    const saved = await t.service.deps.db
      .selectFrom('member_notification_prefs')
      .innerJoin('dashboard_users as u', 'u.id', 'member_notification_prefs.user_id')
      .select('u.email')
      .where('u.email', '=', 'till@shop.example')
      .execute();
    expect(saved).toEqual([]);
  });

  it('mails an immediate member once per finished, partially paid and late payment, nothing they turned off', async () => {
    const m = t.merchant.merchant_id;
    const now = await userOf(t, m, 'now@shop.example', 'viewer');
    const some = await userOf(t, m, 'some@shop.example', 'owner');
    await choose(now, m, ['payment_finished', 'payment_partially_paid', 'payment_paid_late'], 'immediate');
    await choose(some, m, ['payment_paid_late'], 'immediate');

    const full = await create(t.merchant.secret_key);
    await pay(t.merchant.secret_key, full, full.due);
    const [finished] = await waitMails('now@shop.example', 1);
    expect(finished?.parsed.subject).toBe(`[Test shop] Payment ${full.id} finished: ${full.due} BTC`);
    expect(finished?.parsed.text).toContain(`Received: ${full.due} BTC`);
    const link = `${t.url}/dashboard/m/${m}/payments/${full.id}`;
    expect(finished?.parsed.text).toContain(`Open in the dashboard: ${link}`);
    expect(finished?.parsed.html).toContain(`href="${link}"`);
    // More blocks change the payment again (confirmations) but it finished once.
    await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 3 } });

    const part = await create(t.merchant.secret_key, 40, 'eth');
    const units = (x: string) => toUnits(x, 18) as bigint;
    const third = fromUnits(units(part.due) / 3n, 18);
    await pay(t.merchant.secret_key, part, third);
    const two = await waitMails('now@shop.example', 2);
    expect(two[1]?.parsed.subject).toBe(
      `[Test shop] Payment ${part.id} partially paid: ${third} ETH of ${part.due} ETH`,
    );

    const late = await create(t.merchant.secret_key);
    clock.advance(2200 * 1000);
    await until(
      () => status(late.id),
      (s) => s.payment_status === 'expired',
    );
    await pay(t.merchant.secret_key, late, late.due);
    expect((await status(late.id)).status_detail).toBe('paid_late');
    const three = await waitMails('now@shop.example', 3);
    expect(three[2]?.parsed.subject).toBe(
      `[Test shop] Payment ${late.id} paid late: ${late.due} BTC of ${late.due} BTC`,
    );
    const [someLate] = await waitMails('some@shop.example', 1);
    expect(someLate?.parsed.subject).toContain(`Payment ${late.id} paid late`);

    await settle();
    expect(mailsTo('now@shop.example')).toHaveLength(3);
    // The owner who chose only late payments heard of nothing else.
    expect(mailsTo('some@shop.example')).toHaveLength(1);
  }, 120_000);

  it('tells a member the webhook endpoint was switched off (410), once until it is switched on', async () => {
    const shop = await createMerchant(t.service.deps.db, clock, {
      name: 'Hook shop',
      mode: 'test',
      webhookUrl: `http://127.0.0.1:${(gone.address() as AddressInfo).port}/hook`,
    });
    const ops = await userOf(t, shop.merchant_id, 'ops@shop.example', 'owner');
    await choose(ops, shop.merchant_id, ['webhook_failing'], 'immediate');
    for (const _ of [1, 2]) {
      const p = await create(shop.secret_key);
      await pay(shop.secret_key, p, p.due);
    }
    const [off] = await waitMails('ops@shop.example', 1);
    expect(off?.parsed.subject).toBe('[Hook shop] Your webhook endpoint was switched off');
    expect(off?.parsed.text).toContain(`${t.url}/dashboard/m/${shop.merchant_id}/webhooks`);
    expect(off?.parsed.text).not.toContain(shop.webhook_secret);
    await settle();
    expect(mailsTo('ops@shop.example')).toHaveLength(1);
  }, 90_000);

  it('sends a digest member one digest with the day’s events at the digest hour, also with two instances', async () => {
    const m = t.merchant.merchant_id;
    const daily = await userOf(t, m, 'daily@shop.example', 'viewer');
    await choose(daily, m, ['payment_finished', 'payment_partially_paid'], 'digest');
    const a = await create(t.merchant.secret_key);
    await pay(t.merchant.secret_key, a, a.due);
    const b = await create(t.merchant.secret_key);
    await pay(t.merchant.secret_key, b, b.due);
    await until(
      () => status(b.id),
      (s) => s.payment_status === 'finished',
    );
    await settle();
    expect(mailsTo('daily@shop.example')).toHaveLength(0);

    // A second instance of the service on the same store, with its own dispatcher and checks: they race.
    const second: Service = await buildService(t.service.config, { clock, mailTls: { ca: relay.ca } });
    second.start();
    try {
      const today = new Date(clock.now());
      clock.set(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 7, 0, 5));
      const [digest] = await waitMails('daily@shop.example', 1);
      const day = new Date(clock.now()).toISOString().slice(0, 10);
      expect(digest?.parsed.subject).toBe(`[Test shop] Daily digest for ${day}: 2 events`);
      expect(digest?.parsed.text).toContain(`Payment ${a.id} finished`);
      expect(digest?.parsed.text).toContain(`Payment ${b.id} finished`);
      expect(digest?.parsed.text).toContain(`${t.url}/dashboard/m/${m}/payments/${a.id}`);
      await settle();
      expect(mailsTo('daily@shop.example')).toHaveLength(1);
    } finally {
      await second.stop();
    }
  }, 90_000);

  it('mails prices stale once per episode, however long it lasts', async () => {
    const live = await createMerchant(t.service.deps.db, clock, { name: 'Live shop', mode: 'live' });
    const watcher = await userOf(t, live.merchant_id, 'prices@shop.example', 'owner');
    // Fresh prices first (the clock jumped a day), and a check that saw them so.
    await until(
      async () => t.service.deps.rates.live.status().state,
      (s) => s === 'fresh',
    );
    await settle();
    await choose(watcher, live.merchant_id, ['prices_stale'], 'immediate');
    await rates?.close();
    rates = undefined;
    clock.advance(61_000);
    const [stale] = await waitMails('prices@shop.example', 1);
    expect(stale?.parsed.subject).toBe('[Live shop] Prices are stale: live payments in some assets are refused');
    expect(stale?.parsed.text).toContain('ethereum');
    clock.advance(120_000);
    await settle();
    await settle();
    expect(mailsTo('prices@shop.example')).toHaveLength(1);
  }, 90_000);
});
