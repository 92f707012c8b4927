import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { startRelay, type TestRelay } from '../core/mail/testing/relay.js';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { until } from '../server/testing/until.js';

/* Refund claim links (issue 30 item 2) over HTTP: the link mailed through a real relay, the hosted page, the
 * customer's address left unconfirmed until the merchant confirms it, and fixed from then on. */

let t: TestService;
let rcv: TestReceiver;
let relay: TestRelay;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  relay = await startRelay();
  rcv = await startReceiver('unknown-yet');
  t = await startTestService({
    start: true,
    clock,
    webhookUrl: rcv.url,
    env: { SMTP_URL: relay.url, MAIL_FROM: 'Payments <payments@shop.example>', MAIL_POLL_MS: '100' },
    overrides: { mailTls: { ca: relay.ca } },
  });
  rcv.secret = t.merchant.webhook_secret;
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
  await relay?.close();
});

const CUSTOMER_BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const OTHER_BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const ETH_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

async function paidPayment(email: string) {
  const r = await t.api('/api/v1/payments', { body: { amount: 100, currency: 'btc', email } });
  expect(r.status, r.text).toBe(201);
  const send = await t.api('/api/v1/sandbox/transfers', {
    body: {
      currency: 'btc',
      address: r.json.data.blockchain.pay_address,
      amount: String(r.json.data.blockchain.pay_amount),
    },
  });
  expect(send.status, send.text).toBe(201);
  expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } })).status).toBe(200);
  return r.json.data.payment.payment_id as string;
}

const row = (id: string) =>
  t.service.deps.db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const page = (url: string, init: { address?: string; lang?: string } = {}) =>
  fetch(url, {
    method: init.address === undefined ? 'GET' : 'POST',
    headers: {
      'accept-language': init.lang ?? 'en-US',
      ...(init.address === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(init.address === undefined ? {} : { body: new URLSearchParams({ address: init.address }).toString() }),
  }).then(async (r) => ({ status: r.status, html: await r.text() }));

const eventsOf = (id: string) =>
  rcv.received.filter((e) => e.json?.event === 'refund.updated' && e.json.refund.refund_id === id);

describe('refund claim links', () => {
  it('mails a single-use link; the customer gives an address once; the merchant confirms it before sending', async () => {
    const paymentId = await paidPayment('claim@buyer.example');
    const created = await t.api(`/api/v1/payments/${paymentId}/refunds`, {
      body: { amount_units: '15000', claim_link: { expires_in_hours: 48 } },
    });
    expect(created.status, created.text).toBe(201);
    const refund = created.json.data;
    expect(refund.refund_status).toBe('awaiting_address');
    expect(refund.send).toBeNull();
    expect(refund.claim_link.emailed).toBe(true);
    expect(refund.claim_link.expires_at).toBe(new Date(clock.now() + 48 * 3_600_000).toISOString());
    expect(refund.claim_link_expires_at).toBe(refund.claim_link.expires_at);
    const url = refund.claim_link.url as string;
    expect(url).toMatch(new RegExp(`^${t.url}/refund/[A-Za-z0-9_-]{43}$`));
    const token = url.split('/').pop() as string;
    // Only the token's SHA-256 is stored, and a read never shows the link again.
    const stored = await row(refund.refund_id);
    expect(stored.claim_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await t.api(`/api/v1/refunds/${refund.refund_id}`)).text).not.toContain(token);

    // The customer's mail, through the real relay, carries the link and the exact amount.
    const [mail] = await until(
      async () => relay.accepted().filter((m) => JSON.stringify(m.parsed.to).includes('claim@buyer.example')),
      (ms) => ms.some((m) => m.parsed.subject?.includes('refund')),
    ).then((ms) => ms.filter((m) => m.parsed.subject?.includes('refund')));
    expect(mail?.parsed.subject).toBe('Test shop is sending you a refund');
    expect(mail?.parsed.text).toContain(`Give your refund address: ${url}`);
    expect(mail?.parsed.text).toContain('Amount: 0.00015 BTC');
    // Once sent, the outbox's copy (the mail log) no longer holds the working link: the store keeps the token hashed.
    const logged = await until(
      () =>
        t.service.deps.db
          .selectFrom('mail_outbox')
          .select(['status', 'text_body', 'html_body'])
          .where('to_address', '=', 'claim@buyer.example')
          .where('subject', 'like', '%refund%')
          .executeTakeFirstOrThrow(),
      (m) => m.status === 'sent',
    );
    expect(`${logged.text_body}${logged.html_body}`).not.toContain(token);
    expect(logged.text_body).toContain('[link removed after sending]');

    // The page: exact digits, the network, in the reader's language.
    const open = await page(url);
    expect(open.status).toBe(200);
    expect(open.html).toContain('0.00015 BTC');
    expect(open.html).toContain('Bitcoin');
    const de = await page(url, { lang: 'de-DE,de;q=0.9' });
    expect(de.html).toContain('<html lang="de">');
    expect(de.html).toContain('Erstattung von Test shop');

    // Another network's address, or a bad checksum: 422, the form again, nothing written.
    const before = await row(refund.refund_id);
    for (const bad of [ETH_ADDRESS, `${CUSTOMER_BTC.slice(0, -1)}p`]) {
      const r = await page(url, { address: bad });
      expect(r.status).toBe(422);
      expect(r.html).toContain('aria-invalid="true"');
      expect(r.html).toContain('This is not a valid BTC address on Bitcoin');
    }
    expect(await row(refund.refund_id)).toEqual(before);

    const taken = await page(url, { address: ` ${CUSTOMER_BTC} ` });
    expect(taken.status).toBe(200);
    expect(taken.html).toContain(CUSTOMER_BTC);
    const unconfirmed = (await t.api(`/api/v1/refunds/${refund.refund_id}`)).json.data;
    expect(unconfirmed).toMatchObject({
      refund_status: 'awaiting_address',
      address: CUSTOMER_BTC,
      address_source: 'customer',
      address_confirmed: false,
      claim_link_expires_at: null,
      send: null,
    });
    // Single use: the link now refuses, whatever is sent.
    for (const again of [await page(url), await page(url, { address: OTHER_BTC })]) {
      expect(again.status).toBe(410);
      expect(again.html).toContain('This link was already used');
    }
    expect((await row(refund.refund_id)).address).toBe(CUSTOMER_BTC);

    // The merchant confirms the address it saw; another one is refused.
    const wrong = await t.api(`/api/v1/refunds/${refund.refund_id}/address`, { body: { address: OTHER_BTC } });
    expect(wrong.status, wrong.text).toBe(422);
    expect(wrong.json.errors.address[0]).toContain(`Must be the address the customer gave (${CUSTOMER_BTC})`);
    const ok = await t.api(`/api/v1/refunds/${refund.refund_id}/address`, { body: { address: CUSTOMER_BTC } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data).toMatchObject({ refund_status: 'ready', address_confirmed: true, address: CUSTOMER_BTC });
    expect(ok.json.data.send.uri).toBe(`bitcoin:${CUSTOMER_BTC}?amount=0.00015`);

    // Fixed from now on: another address, or a new claim link, is a 422; the same address again changes nothing.
    const change = await t.api(`/api/v1/refunds/${refund.refund_id}/address`, { body: { address: OTHER_BTC } });
    expect(change.status).toBe(422);
    expect(change.json.errors.address[0]).toContain('can no longer change');
    const relink = await t.api(`/api/v1/refunds/${refund.refund_id}/claim-link`, { body: {} });
    expect(relink.status).toBe(422);
    const same = await t.api(`/api/v1/refunds/${refund.refund_id}/address`, { body: { address: CUSTOMER_BTC } });
    expect(same.status).toBe(200);
    expect(same.json.data.sequence).toBe(ok.json.data.sequence);
    expect((await row(refund.refund_id)).address).toBe(CUSTOMER_BTC);

    // Every change is a signed refund.updated: created, address given (unconfirmed), confirmed.
    await rcv.waitFor(() => eventsOf(refund.refund_id).length >= 3);
    const seen = eventsOf(refund.refund_id).map((e) => e.json.refund);
    expect(eventsOf(refund.refund_id).every((e) => e.verified)).toBe(true);
    expect(seen.map((r) => [r.sequence, r.refund_status, r.address, r.address_confirmed])).toEqual([
      [1, 'awaiting_address', null, false],
      [2, 'awaiting_address', CUSTOMER_BTC, false],
      [3, 'ready', CUSTOMER_BTC, true],
    ]);
  });

  it('refuses an expired link and a replaced one; a new link works and is mailed again', async () => {
    const paymentId = await paidPayment('late@buyer.example');
    const created = await t.api(`/api/v1/payments/${paymentId}/refunds`, {
      body: { amount_units: '20000', claim_link: { expires_in_hours: 1, notify_customer: false } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.data.claim_link.emailed).toBe(false);
    const id = created.json.data.refund_id as string;
    const url = created.json.data.claim_link.url as string;
    expect((await page(url)).status).toBe(200);
    clock.advance(3_600_001);
    const expired = await page(url);
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('This link has expired');
    const late = await page(url, { address: CUSTOMER_BTC });
    expect(late.status).toBe(410);
    expect((await row(id)).address).toBeNull();
    expect((await t.api(`/api/v1/refunds/${id}`)).json.data.claim_link_expires_at).toBe(
      created.json.data.claim_link.expires_at,
    );

    const fresh = await t.api(`/api/v1/refunds/${id}/claim-link`, { body: {} });
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.json.data.claim_link.emailed).toBe(true);
    expect(fresh.json.data.claim_link.expires_at).toBe(new Date(clock.now() + 168 * 3_600_000).toISOString());
    expect((await page(url)).status).toBe(404);
    expect((await page(fresh.json.data.claim_link.url)).status).toBe(200);
    await until(
      async () => relay.accepted().filter((m) => JSON.stringify(m.parsed.to).includes('late@buyer.example')),
      (ms) => ms.some((m) => m.parsed.text?.includes(fresh.json.data.claim_link.url)),
    );
  });

  it('limits address tries per link, and 422s bad input to the merchant routes without writing', async () => {
    const paymentId = await paidPayment('tries@buyer.example');
    const created = await t.api(`/api/v1/payments/${paymentId}/refunds`, {
      body: { amount_units: '1000', claim_link: { notify_customer: false } },
    });
    const url = created.json.data.claim_link.url as string;
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await page(url, { address: ETH_ADDRESS })).status);
    expect(codes).toEqual([422, 422, 422, 422, 422, 429]);

    const both = await t.api(`/api/v1/payments/${paymentId}/refunds`, {
      body: { address: CUSTOMER_BTC, claim_link: {} },
    });
    expect(both.status).toBe(422);
    expect(both.json.errors.claim_link[0]).toContain('needs no claim link');
    const long = await t.api(`/api/v1/payments/${paymentId}/refunds`, {
      body: { claim_link: { expires_in_hours: 721 } },
    });
    expect(long.status).toBe(422);
    const rows = await t.service.deps.db
      .selectFrom('refunds')
      .select('id')
      .where('payment_id', '=', paymentId)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
