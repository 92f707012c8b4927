import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../core/merchants/merchants.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const count = async (table: 'payments' | 'payment_links' | 'payment_link_payments') =>
  Number(
    (
      await t.service.deps.db
        .selectFrom(table)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A customer's visit through the link's JSON twin (no key: the token is the capability). */
const visit = (url: string, body: unknown) =>
  fetch(`${t.url}/api/dropin/v1/links/${url.split('/l/')[1]}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, json: await r.json() }));

/** A customer's visit through the page's own form. */
const submitForm = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  }).then(async (r) => ({ status: r.status, location: r.headers.get('location'), text: await r.text() }));

describe('reusable links: the merchant API', () => {
  it('creates a fixed-price link whose every visit makes a new payment, listed and totalled on the link', async () => {
    const created = await t.api('/api/v1/links', {
      body: { name: 'Workshop seat', amount: 25, currencies: ['ltc', 'btc'], max_payments: 5 },
    });
    expect(created.status).toBe(201);
    const link = created.json.data;
    expect(link).toMatchObject({
      name: 'Workshop seat',
      status: 'active',
      amount_type: 'fixed',
      amount: 25,
      price_currency: 'USD',
      currencies: ['LTC', 'BTC'],
      max_payments: 5,
    });
    expect(link.url).toMatch(new RegExp(`^${t.url}/l/[A-Za-z0-9_-]{32}$`));
    expect(link.qr_code_url).toMatch(/^data:image\/svg\+xml/);

    const a = await visit(link.url, { email: 'ann@example.com' });
    const b = await visit(link.url, { email: 'bob@example.com', currency: 'btc' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.data.payment_id).not.toBe(b.json.data.payment_id);
    const pa = await t.api(`/api/v1/payments/${a.json.data.payment_id}`);
    expect(pa.json.data).toMatchObject({ price_amount: 25, price_currency: 'USD', pay_currency: 'LTC' });
    const pb = await t.api(`/api/v1/payments/${b.json.data.payment_id}`);
    expect(pb.json.data.pay_currency).toBe('BTC');

    const read = await t.api(`/api/v1/links/${link.id}`);
    expect(read.json.data.totals).toEqual([{ price_currency: 'USD', payments: 2, paid_payments: 0, paid_amount: 0 }]);
    const list = await t.api('/api/v1/links');
    expect(list.json.data.links.map((l: { id: string }) => l.id)).toContain(link.id);
  });

  it('refuses a customer amount below the minimum, on the page and by the API, and writes nothing', async () => {
    const link = (
      await t.api('/api/v1/links', { body: { name: 'Donation', min_amount: 5, max_amount: 500, currencies: ['ltc'] } })
    ).json.data;
    expect(link).toMatchObject({ amount_type: 'customer', amount: null, min_amount: 5, max_amount: 500 });
    const before = await count('payments');
    const api = await visit(link.url, { email: 'cy@example.com', amount: 4.99 });
    expect(api.status).toBe(422);
    expect(api.json.errors.amount[0]).toContain('at least 5 USD');
    const page = await submitForm(link.url, { email: 'cy@example.com', amount: '4.99', currency: 'LTC' });
    expect(page.status).toBe(422);
    expect(page.text).toContain('The amount must be at least 5 USD');
    expect(page.text).toContain('value="4.99"');
    const badEmail = await submitForm(link.url, { email: 'not-an-address', amount: '10' });
    expect(badEmail.status).toBe(422);
    expect(badEmail.text).toContain('Must be a valid e-mail address');
    expect(await count('payments')).toBe(before);

    const fine = await submitForm(link.url, { email: 'cy@example.com', amount: '12.50', currency: 'LTC' });
    expect(fine.status).toBe(303);
    expect(fine.location).toMatch(/\/pay\/pay_[a-z0-9]+\?t=/);
    const id = /\/pay\/(pay_[a-z0-9]+)/.exec(fine.location ?? '')?.[1];
    expect((await t.api(`/api/v1/payments/${id}`)).json.data.price_amount).toBe(12.5);
  });

  it('stops a deactivated link at once: the page says so and no payment is made', async () => {
    const link = (await t.api('/api/v1/links', { body: { name: 'Stickers', amount: 3 } })).json.data;
    const off = await t.api(`/api/v1/links/${link.id}`, { method: 'PATCH', body: { active: false } });
    expect(off.status).toBe(200);
    expect(off.json.data).toMatchObject({ active: false, status: 'inactive' });
    const before = await count('payments');
    const page = await fetch(link.url).then((r) => r.text());
    expect(page).toContain('This payment link has been deactivated');
    expect(page).not.toContain('<form');
    expect((await visit(link.url, { email: 'dee@example.com' })).status).toBe(409);
    expect((await submitForm(link.url, { email: 'dee@example.com' })).status).toBe(409);
    expect(await count('payments')).toBe(before);
  });

  it("keeps a link's currency and assets when its customer picks another asset on the hosted page", async () => {
    const link = (
      await t.api('/api/v1/links', {
        body: { name: 'Berlin workshop', amount: 20, price_currency: 'EUR', currencies: ['ltc', 'btc'] },
      })
    ).json.data;
    // The page shows the price in the link's currency, formatted for the customer's language.
    const german = await fetch(link.url, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
    expect(await german.text()).toMatch(/data-field="price">20,00\s€</);
    expect(await fetch(link.url).then((r) => r.text())).toContain('data-field="price">€20.00<');
    const a = await visit(link.url, { email: 'eva@example.com', currency: 'ltc' });
    expect(a.status).toBe(201);
    const first = a.json.data.payment_id as string;
    const page = new URL(a.json.data.hosted_payment_url);
    const token = `pt_${first}.${page.searchParams.get('t')}`;
    const choose = (currency: string) =>
      fetch(`${t.url}/api/dropin/v1/sessions/${token}/payment`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ currency }),
      }).then(async (r) => ({ status: r.status, json: await r.json() }));
    const before = await count('payments');
    const outside = await choose('DOGE');
    expect(outside.status).toBe(422);
    expect(outside.json.errors.currency[0]).toContain('LTC, BTC');
    expect(await count('payments')).toBe(before);

    const btc = await choose('BTC');
    expect(btc.status).toBe(201);
    const second = (await t.api(`/api/v1/payments/${btc.json.data.payment.payment_id}`)).json.data;
    expect(second).toMatchObject({ price_amount: 20, price_currency: 'EUR', pay_currency: 'BTC' });
    const read = (await t.api(`/api/v1/links/${link.id}`)).json.data;
    expect(read.totals).toEqual([{ price_currency: 'EUR', payments: 2, paid_payments: 0, paid_amount: 0 }]);
  });

  it('never makes more payments than the limit when customers arrive at once', async () => {
    const link = (await t.api('/api/v1/links', { body: { name: 'Last seats', amount: 40, max_payments: 3 } })).json
      .data;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => visit(link.url, { email: `c${i}@example.com` })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    const read = await t.api(`/api/v1/links/${link.id}`);
    expect(read.json.data.status).toBe('limit_reached');
    expect(read.json.data.totals[0].payments).toBe(3);
    const page = await fetch(link.url).then((r) => r.text());
    expect(page).toContain('reached its limit');
  });
});

describe('reusable links: bad input and other merchants', () => {
  it('answers bad bodies with the envelope naming each field, and writes nothing', async () => {
    const before = await count('payment_links');
    const cases: [unknown, string][] = [
      [{ amount: 5 }, 'name'],
      [{ name: 'X', amount: -1 }, 'amount'],
      [{ name: 'X', amount: 5, min_amount: 2 }, 'min_amount'],
      [{ name: 'X', min_amount: 20, max_amount: 10 }, 'max_amount'],
      [{ name: 'X', amount: 5, currencies: ['nope'] }, 'currencies'],
      [{ name: 'X', amount: 5, max_payments: 0 }, 'max_payments'],
      [{ name: 'X', amount: 5, ends_at: '2001-01-01T00:00:00Z' }, 'ends_at'],
      [{ name: 'X', amount: 5, price_currency: 'XXX' }, 'price_currency'],
      [{ name: 'X', amount: 5, surprise: 1 }, ''],
    ];
    for (const [body, field] of cases) {
      const r = await t.api('/api/v1/links', { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json.success).toBe(false);
      if (field) expect(Object.keys(r.json.errors), JSON.stringify(body)).toContain(field);
    }
    expect((await t.api('/api/v1/links', { body: '{"name":' })).status).toBe(400);
    expect(await count('payment_links')).toBe(before);
    const link = (await t.api('/api/v1/links', { body: { name: 'Kept', amount: 9 } })).json.data;
    const bad = await t.api(`/api/v1/links/${link.id}`, { method: 'PATCH', body: { min_amount: 1 } });
    expect(bad.status).toBe(422);
    expect((await t.api(`/api/v1/links/${link.id}`)).json.data).toMatchObject({ amount: 9, min_amount: null });
  });

  it("reads another merchant's link as not found, and cannot change it", async () => {
    const other = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Other', mode: 'test' });
    const theirs = (await t.api('/api/v1/links', { key: other.secret_key, body: { name: 'Theirs', amount: 5 } })).json
      .data;
    expect((await t.api(`/api/v1/links/${theirs.id}`)).status).toBe(404);
    const patch = await t.api(`/api/v1/links/${theirs.id}`, { method: 'PATCH', body: { active: false } });
    expect(patch.status).toBe(404);
    expect((await t.api(`/api/v1/links/${theirs.id}`, { key: other.secret_key })).json.data.active).toBe(true);
    expect((await t.api('/api/v1/links')).json.data.links.map((l: { id: string }) => l.id)).not.toContain(theirs.id);
    expect((await fetch(`${t.url}/l/${'A'.repeat(32)}`)).status).toBe(404);
  });
});
