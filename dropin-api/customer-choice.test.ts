import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashClient, userOf } from '../dashboard-api/testing/client.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

/*
 * A payment link made in the dashboard without an asset leaves the choice to the customer (issue 27, item 7): its
 * hosted page's session says so, and so does the page of the payment a choice creates. A link with an asset does not.
 */

let t: TestService;
let owner: DashClient;
beforeAll(async () => {
  t = await startTestService();
  owner = await userOf(t, t.merchant.merchant_id, 'owner@choice.example');
});
afterAll(async () => {
  await t.close();
});

/** The hosted page's session token, from its URL (`/pay/{payment_id}?t={token}`), as widget/page.ts builds it. */
function pageToken(url: string): string {
  const u = new URL(url);
  return `pt_${u.pathname.split('/').pop()}.${u.searchParams.get('t')}`;
}
const dropin = async (path: string, body?: unknown) => {
  const r = await fetch(`${t.url}/api/dropin/v1${path}`, {
    ...(body === undefined
      ? {}
      : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: r.status, json: await r.json() };
};
const link = async (body: Record<string, unknown>) =>
  (await owner.call(`/merchants/${t.merchant.merchant_id}/payment-links`, { body })).json.data
    .hosted_payment_url as string;

describe('the hosted page of a customer-chooses link', () => {
  it('says the customer chooses, lists the currencies, and carries the choice to the new payment', async () => {
    const token = pageToken(await link({ amount: 25, email: 'c@buyer.example' }));
    const read = await dropin(`/sessions/${token}`);
    expect(read.status).toBe(200);
    expect(read.json.data.session.customer_chooses_currency).toBe(true);
    expect(read.json.data.payment.pay_currency).toBe('BTC');
    const list = await dropin(`/sessions/${token}/currencies`);
    expect(list.json.data.map((c: { code: string }) => c.code)).toContain('LTC');

    const chosen = await dropin(`/sessions/${token}/payment`, { currency: 'LTC' });
    expect(chosen.status).toBe(201);
    expect(chosen.json.data.payment.pay_currency).toBe('LTC');
    const next = await dropin(`/sessions/${chosen.json.data.session_token}`);
    expect(next.json.data.session.customer_chooses_currency).toBe(true);
    expect(next.json.data.payment.payment_id).toBe(chosen.json.data.payment.payment_id);
  });

  it('does not say so for a link whose asset the merchant chose, in the dashboard or the API', async () => {
    const fromDashboard = pageToken(await link({ amount: 25, currency: 'ltc', email: 'd@buyer.example' }));
    expect((await dropin(`/sessions/${fromDashboard}`)).json.data.session).not.toHaveProperty(
      'customer_chooses_currency',
    );
    const api = await t.api('/api/v1/payment-links', {
      body: { amount: 25, currency: 'ltc', email: 'e@buyer.example' },
    });
    const fromApi = pageToken(api.json.data.payment.hosted_payment_url);
    expect((await dropin(`/sessions/${fromApi}`)).json.data.session).not.toHaveProperty('customer_chooses_currency');
  });

  it('keeps a page whose asset the merchant chose in that asset: another is refused, nothing is written', async () => {
    const api = await t.api('/api/v1/payment-links', {
      body: { amount: 25, currency: 'ltc', email: 'f@buyer.example' },
    });
    const token = pageToken(api.json.data.payment.hosted_payment_url);
    const other = await dropin(`/sessions/${token}/payment`, { currency: 'BTC' });
    expect(other.status).toBe(422);
    expect(other.json.errors.currency[0]).toContain('LTC');
    const read = await dropin(`/sessions/${token}`);
    expect(read.json.data.payment.pay_currency).toBe('LTC');
    expect(read.json.data.payment.payment_status).toBe('waiting');
    // The same asset again is the page's own payment, unchanged.
    const same = await dropin(`/sessions/${token}/payment`, { currency: 'LTC' });
    expect(same.status).toBe(200);
    expect(same.json.data.payment.payment_id).toBe(read.json.data.payment.payment_id);
  });
});
