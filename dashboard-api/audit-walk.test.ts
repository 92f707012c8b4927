import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomWalletKeys } from '../core/chains/monero/testing/wallet-keys.js';
import { ManualClock } from '../core/clock.js';
import { type CreatedMerchant, createMerchant } from '../core/merchants/merchants.js';
import { addUser } from '../core/users/accounts.js';
import type { ApiResponse } from '../server/testing/harness.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { createDashboardApi } from './index.js';
import { type DashClient, dashFetch, signIn, TEST_PASSWORD } from './testing/client.js';

/*
 * README promises an audit entry for every change made in the dashboard (issue 27, item 7: creating a payment link
 * wrote none). This walks every changing route the dashboard API has (read from the app itself, so a route added
 * later without an entry, or without a place here, fails this test) and checks that each writes its entry.
 */

/** Changing routes that write no entry, and why: none of them changes what a merchant has. */
const NOT_CHANGES = new Map([
  ['DELETE /session', "signing out ends the caller's own session only"],
  ['POST /account/two-factor/setup', 'a new secret does nothing until POST /account/two-factor turns it on (audited)'],
  ['POST /merchants/:merchant_id/xpub/preview', 'reads the addresses a key gives; nothing is saved'],
  ['POST /merchants/:merchant_id/forwarders/sweep-transaction', "builds the wallet's transaction; nothing is written"],
  [
    'POST /merchants/:merchant_id/refunds/:refund_id/monero-proof',
    'audited as refund.prove, but it needs a monerod: core/chains/monero/refund-proof-live.test.ts checks its audit entry',
  ],
  ['POST /password-reset', 'asks for a reset mail; the password changes only at POST /password (audited)'],
  [
    'PUT /account/notifications/:merchant_id',
    "a member's own choice of which events they are mailed; nothing of the merchant's changes",
  ],
  [
    'POST /merchants/:merchant_id/pos/payments',
    "a sale at the counter is a payment, listed in the day's sales with the member who took it",
  ],
]);

const EVM_XPUB =
  'xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP';
const OWNER = 'walk-owner@shop.example';

let t: TestService;
let live: CreatedMerchant;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  t = await startTestService({ clock, webhookUrl: 'http://127.0.0.1:9/hook' });
  live = await createMerchant(t.service.deps.db, clock, { name: 'Walk shop (live)', mode: 'live' });
  await addUser(t.service.deps, {
    merchantId: t.merchant.merchant_id,
    email: OWNER,
    role: 'owner',
    password: TEST_PASSWORD,
  });
  await addUser(t.service.deps, { merchantId: live.merchant_id, email: OWNER, role: 'owner' });
});
afterAll(async () => {
  await t.close();
});

const entries = async (merchantId: string, action: string) =>
  Number(
    (
      await t.service.deps.db
        .selectFrom('audit_log')
        .select((e) => e.fn.countAll().as('n'))
        .where('merchant_id', '=', merchantId)
        .where('action', '=', action)
        .executeTakeFirstOrThrow()
    ).n,
  );

const codeOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: clock.now(),
  });

describe('the audit log', () => {
  it('gets an entry from every changing route of the dashboard API, payment links included', async () => {
    const walked = new Set<string>();
    /** Runs one route's call and expects it to succeed and to add one `action` entry to `merchantId`'s log. */
    const step = async (route: string, action: string, call: () => Promise<ApiResponse>, merchantId?: string) => {
      const m = merchantId ?? t.merchant.merchant_id;
      const before = await entries(m, action);
      const r = await call();
      expect(r.status, `${route}: ${r.text}`).toBeLessThan(300);
      expect(await entries(m, action), `${route} writes a ${action} entry`).toBe(before + 1);
      walked.add(route);
      return r;
    };
    const tm = `/merchants/${t.merchant.merchant_id}`;
    const lm = `/merchants/${live.merchant_id}`;

    let owner: DashClient | undefined;
    await step('POST /session', 'sign_in', async () => {
      owner = await signIn(t.url, OWNER);
      return { status: 200, text: '', json: null, headers: new Headers() };
    });
    const o = owner as DashClient;

    await step('POST /merchants/:merchant_id/payment-links', 'payment.link', () =>
      o.call(`${tm}/payment-links`, { body: { amount: 20, email: 'buyer@shop.example' } }),
    );
    await step('POST /merchants/:merchant_id/checkout-sessions', 'checkout.try', () =>
      o.call(`${tm}/checkout-sessions`, { body: { amount: 5 } }),
    );

    const key = await step('POST /merchants/:merchant_id/keys', 'key.create', () =>
      o.call(`${tm}/keys`, { body: { kind: 'secret', label: 'walk' } }),
    );
    const keyId: string = key.json.data.id;
    await step('PATCH /merchants/:merchant_id/keys/:key_id', 'key.label', () =>
      o.call(`${tm}/keys/${keyId}`, { method: 'PATCH', body: { label: 'walked' } }),
    );
    const rotated = await step('POST /merchants/:merchant_id/keys/:key_id/rotate', 'key.rotate', () =>
      o.call(`${tm}/keys/${keyId}/rotate`, { body: {} }),
    );
    await step('POST /merchants/:merchant_id/keys/:key_id/deactivate', 'key.deactivate', () =>
      o.call(`${tm}/keys/${rotated.json.data.id}/deactivate`, { method: 'POST' }),
    );

    await step('PUT /merchants/:merchant_id/webhook-endpoint', 'webhook.url', () =>
      o.call(`${tm}/webhook-endpoint`, { method: 'PUT', body: { url: 'http://127.0.0.1:9/other-hook' } }),
    );
    await step('POST /merchants/:merchant_id/webhook-endpoint/rotate-secret', 'webhook.secret', () =>
      o.call(`${tm}/webhook-endpoint/rotate-secret`, { method: 'POST' }),
    );
    await step('POST /merchants/:merchant_id/webhook-endpoint/enable', 'webhook.enable', () =>
      o.call(`${tm}/webhook-endpoint/enable`, { method: 'POST' }),
    );
    const sent = await step('POST /merchants/:merchant_id/webhook-deliveries/test', 'webhook.test', () =>
      o.call(`${tm}/webhook-deliveries/test`, { method: 'POST' }),
    );
    await step('POST /merchants/:merchant_id/webhook-deliveries/:delivery_id/redeliver', 'webhook.redeliver', () =>
      o.call(`${tm}/webhook-deliveries/${sent.json.data.delivery_id ?? sent.json.data.id}/redeliver`, {
        method: 'POST',
      }),
    );
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    await step('POST /merchants/:merchant_id/webhook-deliveries/redeliver-failed', 'webhook.redeliver_failed', () =>
      o.call(`${tm}/webhook-deliveries/redeliver-failed`, { body: { from: today, to: today } }),
    );

    // A finished payment, paid on the sandbox chain, to mark refunded.
    const p = (await t.api('/api/v1/payments', { body: { amount: 20, currency: 'ltc', email: 'b@buyer.example' } }))
      .json.data;
    await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'ltc', address: p.blockchain.pay_address, amount: String(p.blockchain.pay_amount) },
    });
    await t.api('/api/v1/sandbox/blocks', { body: { count: 12, network: p.blockchain.network } });
    const refund = await step('POST /merchants/:merchant_id/payments/:payment_id/refunds', 'refund.create', () =>
      o.call(`${tm}/payments/${p.payment.payment_id}/refunds`, { body: { amount_units: '1' } }),
    );
    await step('POST /merchants/:merchant_id/refunds/:refund_id/claim-link', 'refund.claim_link', () =>
      o.call(`${tm}/refunds/${refund.json.data.refund_id}/claim-link`, { body: { notify_customer: false } }),
    );
    await step('POST /merchants/:merchant_id/refunds/:refund_id/address', 'refund.confirm_address', () =>
      o.call(`${tm}/refunds/${refund.json.data.refund_id}/address`, {
        body: { address: 'ltc1qqypqxpq9qcrsszg2pvxq6rs0zqg3yyc5dyg36p' },
      }),
    );
    await step('POST /merchants/:merchant_id/refunds/:refund_id/cancel', 'refund.cancel', () =>
      o.call(`${tm}/refunds/${refund.json.data.refund_id}/cancel`, { method: 'POST' }),
    );

    // Payment exceptions (issue 30 item 5): the tolerance, then a partly paid payment asked for the rest and accepted.
    await step('PUT /merchants/:merchant_id/underpaid-tolerance', 'settings.tolerance', () =>
      o.call(`${tm}/underpaid-tolerance`, { method: 'PUT', body: { bps: 0, usd: '0' } }),
    );
    const short = (await t.api('/api/v1/payments', { body: { amount: 20, currency: 'btc', email: 'b@buyer.example' } }))
      .json.data;
    await t.api('/api/v1/sandbox/transfers', {
      body: { currency: 'btc', address: short.blockchain.pay_address, amount: '0.00001' },
    });
    await t.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'btc' } });
    await step('POST /merchants/:merchant_id/payments/:payment_id/ask-rest', 'payment.ask_rest', () =>
      o.call(`${tm}/payments/${short.payment.payment_id}/ask-rest`, {
        body: { deadline: new Date(clock.now() + 86_400_000).toISOString() },
      }),
    );
    await step('POST /merchants/:merchant_id/payments/:payment_id/accept', 'payment.accept', () =>
      o.call(`${tm}/payments/${short.payment.payment_id}/accept`, { body: {} }),
    );

    await step('POST /merchants/:merchant_id/payments/:payment_id/refund', 'payment.refund', () =>
      o.call(`${tm}/payments/${p.payment.payment_id}/refund`, { method: 'POST' }),
    );

    const reusable = await step('POST /merchants/:merchant_id/links', 'link.create', () =>
      o.call(`${tm}/links`, { body: { name: 'Walked link', amount: 15 } }),
    );
    await step('PATCH /merchants/:merchant_id/links/:link_id', 'link.update', () =>
      o.call(`${tm}/links/${reusable.json.data.id}`, { method: 'PATCH', body: { active: false } }),
    );
    await step('PUT /merchants/:merchant_id/mail-settings', 'mail.settings', () =>
      o.call(`${tm}/mail-settings`, {
        method: 'PUT',
        body: {
          sender_name: 'Walked shop',
          reply_to: null,
          receipts: true,
          underpaid: true,
          expired_partly_paid: false,
        },
      }),
    );
    await step('POST /merchants/:merchant_id/mail-settings/test', 'mail.test', () =>
      o.call(`${tm}/mail-settings/test`, { method: 'POST' }),
    );

    await step('PATCH /merchants/:merchant_id/settings', 'settings.update', () =>
      o.call(`${tm}/settings`, { method: 'PATCH', body: { name: 'Walked shop' } }),
    );
    await step(
      'PUT /merchants/:merchant_id/xpub',
      'xpub.set',
      () => o.call(`${lm}/xpub`, { method: 'PUT', body: { xpub: EVM_XPUB } }),
      live.merchant_id,
    );
    const monero = randomWalletKeys();
    await step(
      'PUT /merchants/:merchant_id/monero-keys',
      'monero_keys.set',
      () => o.call(`${lm}/monero-keys`, { method: 'PUT', body: { address: monero.address, view_key: monero.viewKey } }),
      live.merchant_id,
    );
    await step(
      'PUT /merchants/:merchant_id/payout',
      'payout.set',
      () => o.call(`${lm}/payout`, { method: 'PUT', body: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } }),
      live.merchant_id,
    );

    const invited = await step('POST /merchants/:merchant_id/users', 'user.invite', () =>
      o.call(`${tm}/users`, { body: { email: 'walk-new@shop.example', role: 'viewer' } }),
    );
    const link: string = invited.json.data.invite_url;
    await step('POST /password', 'password.set', () =>
      dashFetch(t.url, '/password', {
        body: { token: link.slice(link.indexOf('#token=') + 7), password: 'a walked new password' },
      }),
    );
    const userId: string = invited.json.data.user_id;
    await step('PATCH /merchants/:merchant_id/users/:user_id', 'user.role', () =>
      o.call(`${tm}/users/${userId}`, { method: 'PATCH', body: { role: 'owner' } }),
    );
    await step('DELETE /merchants/:merchant_id/users/:user_id', 'user.remove', () =>
      o.call(`${tm}/users/${userId}`, { method: 'DELETE' }),
    );

    await step('POST /account/password', 'password.change', () =>
      o.call('/account/password', {
        body: { current_password: TEST_PASSWORD, new_password: 'a changed long password' },
      }),
    );
    // The password change ended every other session, this one included? Sign in again either way.
    const o2 = await signIn(t.url, OWNER, 'a changed long password');
    const setup = await o2.call('/account/two-factor/setup', { method: 'POST' });
    walked.add('POST /account/two-factor/setup');
    const secret: string = setup.json.data.secret;
    await step('POST /account/two-factor', 'two_factor.enable', () =>
      o2.call('/account/two-factor', { body: { code: codeOf(secret) } }),
    );
    await step('PUT /merchants/:merchant_id/two-factor-requirement', 'two_factor.require', () =>
      o2.call(`${tm}/two-factor-requirement`, { method: 'PUT', body: { required: true } }),
    );
    clock.advance(31_000);
    const pending = await dashFetch(t.url, '/session', {
      body: { email: OWNER, password: 'a changed long password' },
    });
    const o3 = await step('POST /session/two-factor', 'sign_in', () =>
      dashFetch(t.url, '/session/two-factor', {
        body: { pending_token: pending.json.data.two_factor.pending_token, code: codeOf(secret) },
      }),
    );
    const cookie = (o3.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const csrf: string = o3.json.data.csrf_token;
    await step('POST /account/two-factor/disable', 'two_factor.disable', () =>
      dashFetch(t.url, '/account/two-factor/disable', {
        body: { password: 'a changed long password' },
        headers: { cookie, 'x-csrf-token': csrf },
      }),
    );

    // A new store: its entry is in its own log.
    const store = await o2.call('/merchants', { body: { name: 'Second shop', mode: 'live' } });
    expect(store.status, store.text).toBe(201);
    expect(await entries(store.json.data.merchant_id, 'merchant.create')).toBe(1);
    walked.add('POST /merchants');

    const changing = createDashboardApi(t.service.deps, t.service.deps.clientAddress)
      .routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
      .map((r) => `${r.method} ${r.path}`);
    for (const k of NOT_CHANGES.keys()) walked.add(k);
    expect(
      [...new Set(changing)].filter((r) => !walked.has(r)).sort(),
      'changing routes this walk never audited',
    ).toEqual([]);
  });
});
