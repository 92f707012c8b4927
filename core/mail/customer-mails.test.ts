import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { rawNumber, until } from '../../server/testing/until.js';
import { createMerchant } from '../merchants/merchants.js';
import { fromUnits, toUnits } from '../money/decimal.js';
import { startRelay, type TestRelay } from './testing/relay.js';

/* Customer mails written by payment changes and delivered through a real relay (issue 29, item 5). */

let t: TestService;
let relay: TestRelay;

beforeAll(async () => {
  relay = await startRelay();
  t = await startTestService({
    start: true,
    env: { SMTP_URL: relay.url, MAIL_FROM: 'Payments <payments@shop.example>', MAIL_POLL_MS: '100' },
    overrides: { mailTls: { ca: relay.ca } },
  });
});
afterAll(async () => {
  await t?.close();
  await relay?.close();
});

const mailTo = (to: string, n = 1) =>
  until(
    async () => relay.accepted().filter((m) => JSON.stringify(m.parsed.to).includes(to)),
    (ms) => ms.length >= n,
  );

async function pay(key: string, currency: string, address: string, amount: string, network: string) {
  const tr = await t.api('/api/v1/sandbox/transfers', { key, body: { currency, address, amount } });
  expect(tr.status, tr.text).toBeLessThan(300);
  await t.api('/api/v1/sandbox/blocks', { key, body: { network, count: 2 } });
  return tr;
}

/** A drop-in checkout in the customer's browser language, paid in full. */
async function dropinPaid(email: string, language: string) {
  const headers = { authorization: `Bearer ${t.merchant.public_key}`, 'accept-language': language };
  const s = await t.api('/api/dropin/v1/sessions', {
    key: null,
    headers,
    body: { amount: 25, customer: { email, name: 'Ann' }, reference: 'A-1' },
  });
  expect(s.status, s.text).toBe(201);
  const chosen = await t.api(`/api/dropin/v1/sessions/${s.json.data.session_token}/payment`, {
    key: null,
    headers: { 'accept-language': language },
    body: { currency: 'btc' },
  });
  expect(chosen.status, chosen.text).toBe(201);
  const p = chosen.json.data.payment;
  const amount = p.pay_amount as string;
  await pay(t.merchant.secret_key, 'btc', p.pay_address, amount, 'btc');
  return { id: p.payment_id as string, amount };
}

describe('customer mails', () => {
  it('sends a receipt in the checkout locale with the exact digits and the transaction (two locales)', async () => {
    const de = await dropinPaid('kunde@example.de', 'de-DE,de;q=0.9,en;q=0.5');
    const fr = await dropinPaid('client@example.fr', 'fr-FR');
    const [mDe] = await mailTo('kunde@example.de');
    const [mFr] = await mailTo('client@example.fr');
    expect(mDe?.parsed.subject).toBe('Ihre Zahlung an Test shop ist abgeschlossen');
    expect(mFr?.parsed.subject).toBe('Votre paiement à Test shop est terminé');
    expect(de.amount).toBe('0.00038462');
    for (const [m, p, label] of [
      [mDe, de, 'Betrag'],
      [mFr, fr, 'Montant'],
    ] as const) {
      expect(m?.parsed.text).toContain(`${label}: ${p.amount} BTC`);
      expect(m?.parsed.html).toContain(`${p.amount} BTC`);
      expect(m?.parsed.text).toContain(p.id);
      const txid = await t.service.deps.db
        .selectFrom('deposits')
        .select('txid')
        .where('payment_id', '=', p.id)
        .executeTakeFirstOrThrow();
      expect(m?.parsed.text).toContain(txid.txid);
      expect(m?.parsed.from?.value[0]).toEqual({ name: 'Test shop', address: 'payments@shop.example' });
    }
    expect(mDe?.parsed.html).toContain('<html lang="de"');
    // One receipt per payment, however many changes follow.
    await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 3 } });
    expect((await mailTo('kunde@example.de')).length).toBe(1);
  });

  it('tells an underpaying customer the exact remainder, with the hosted link to complete', async () => {
    const c = await t.api('/api/v1/payments', { body: { amount: 40, currency: 'eth', email: 'short@example.com' } });
    expect(c.status, c.text).toBe(201);
    const due = rawNumber(c.text, 'pay_amount');
    const decimals = 18;
    const units = (x: string) => toUnits(x, decimals) as bigint;
    const sent = fromUnits(units(due) / 3n, decimals);
    await pay(t.merchant.secret_key, 'eth', c.json.data.blockchain.pay_address, sent, c.json.data.blockchain.network);
    const [m] = await mailTo('short@example.com');
    const remainder = fromUnits(units(due) - units(sent), decimals);
    expect(m?.parsed.subject).toBe('Your payment to Test shop is not complete yet');
    expect(m?.parsed.text).toContain(`Still due: ${remainder} ETH`);
    expect(m?.parsed.text).toContain(`Received: ${sent} ETH`);
    expect(m?.parsed.text).toMatch(
      new RegExp(`Complete the payment: ${t.url}/pay/${c.json.data.payment.payment_id}\\?t=\\S+`),
    );
  });

  it('keeps typed text inert: a <script> description is escaped, a CR/LF name adds no header', async () => {
    const evil = await createMerchant(t.service.deps.db, t.service.deps.clock, {
      name: 'Evil\r\nBcc: victim@evil.example',
      mode: 'test',
    });
    const c = await t.api('/api/v1/payments', {
      key: evil.secret_key,
      body: {
        amount: 25,
        currency: 'btc',
        email: 'target@example.com',
        order_id: 'A<b>1',
        order_description: '<script>alert(1)</script>',
      },
    });
    expect(c.status, c.text).toBe(201);
    await pay(evil.secret_key, 'btc', c.json.data.blockchain.pay_address, rawNumber(c.text, 'pay_amount'), 'btc');
    const [m] = await mailTo('target@example.com');
    expect(m?.parsed.html).not.toContain('<script>');
    expect(m?.parsed.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(m?.parsed.html).toContain('A&lt;b&gt;1');
    expect(m?.parsed.text).toContain('<script>alert(1)</script>');
    expect(m?.parsed.bcc).toBeUndefined();
    const head = (m?.raw ?? '').split(/\r?\n\r?\n/)[0] ?? '';
    expect(head).not.toMatch(/^bcc:/im);
    expect(m?.parsed.subject).toBe('Your payment to Evil Bcc: victim@evil.example is complete');
    expect(relay.received.some((r) => JSON.stringify(r.parsed.to).includes('victim@evil.example'))).toBe(false);
  });

  it('sends nothing when the merchant turned receipts off', async () => {
    const quiet = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Quiet', mode: 'test' });
    await t.service.deps.db
      .insertInto('merchant_mail_settings')
      .values({
        merchant_id: quiet.merchant_id,
        sender_name: null,
        reply_to: null,
        receipts: 0,
        underpaid: 1,
        expired_partly_paid: 1,
        updated_at: 0,
      })
      .execute();
    const c = await t.api('/api/v1/payments', {
      key: quiet.secret_key,
      body: { amount: 25, currency: 'btc', email: 'silent@example.com' },
    });
    await pay(quiet.secret_key, 'btc', c.json.data.blockchain.pay_address, rawNumber(c.text, 'pay_amount'), 'btc');
    await until(
      async () =>
        (await t.api(`/api/v1/payments/${c.json.data.payment.payment_id}`, { key: quiet.secret_key })).json.data
          .payment_status,
      (s) => s === 'finished',
    );
    const rows = await t.service.deps.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', 'silent@example.com')
      .execute();
    expect(rows).toEqual([]);
  });
});
