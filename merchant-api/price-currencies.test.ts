import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { updateMerchant } from '../core/merchants/merchants.js';
import { decodeQrDataUrl } from '../core/qr/testing/decode.js';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../server/testing/harness.js';

/*
 * Prices in the merchant's currency (issue 31, item 3), over HTTP on the real service with a real webhook receiver.
 * Test-mode rates (core/pricing/fixed-rates.ts): BTC 65000 USD x 0.9 EUR/USD = 58500 EUR; ETH 3000 USD x 150
 * JPY/USD = 450000 JPY. Expected amounts below are worked out by hand from those figures and the rule: the price in
 * its minor units divided by the rate, rounded UP to the asset's decimals and to 15 significant digits.
 */

let t: TestService;
let rcv: TestReceiver;
const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));

beforeAll(async () => {
  rcv = await startReceiver('unknown-yet');
  t = await startTestService({ clock, start: true, webhookUrl: rcv.url });
  rcv.secret = t.merchant.webhook_secret;
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
});

const order = { email: 'ann@example.com', name: 'Ann', order_id: 'B-1' };
const payAmountText = (text: string) => /"pay_amount":([0-9.]+)/.exec(text)?.[1];

/** Pays a payment on the sandbox chain with its exact amount and mines it: it finishes and a webhook goes out. */
async function pay(currency: string, address: string, amount: string, network: string) {
  const tr = await t.api('/api/v1/sandbox/transfers', { body: { currency, address, amount } });
  expect(tr.status, tr.text).toBe(201);
  const mined = await t.api('/api/v1/sandbox/blocks', { body: { network, count: 2 } });
  expect(mined.status, mined.text).toBe(200);
}

/**
 * One payment in a currency, checked everywhere its amount appears: the API answer, the QR payloads (decoded from
 * the images), the payment URI, the hosted page's data and the signed webhook of its completion.
 */
async function checkEverywhere(
  body: Record<string, unknown>,
  expected: { price: string; currency: string; pay: string },
) {
  const r = await t.api('/api/v1/payments', { body: { ...order, ...body } });
  expect(r.status, r.text).toBe(201);
  const d = r.json.data;
  expect(d.pricing.price_currency).toBe(expected.currency);
  expect(r.text).toContain(`"price_amount":${expected.price},`);
  expect(payAmountText(r.text)).toBe(expected.pay);
  expect(String(d.pricing.pay_amount)).toBe(expected.pay);
  expect(String(d.blockchain.pay_amount)).toBe(expected.pay);

  // QR and URI: images decoded, digits compared (EIP-681 carries base units, scaled exactly).
  expect(decodeQrDataUrl(d.qr.amount_code_url)).toBe(d.qr.amount_payload);
  expect(d.qr.payment_uri).toBe(d.qr.amount_payload);
  const [ip, fp = ''] = expected.pay.split('.');
  if (d.blockchain.network === 'eth') {
    const units = /value=(\d+)/.exec(d.qr.payment_uri)?.[1];
    expect(units).toBe(BigInt(ip + fp.padEnd(d.blockchain.network_precision, '0')).toString());
  } else {
    expect(d.qr.payment_uri).toContain(`amount=${expected.pay}`);
  }

  // The hosted page reads the payment through its signed token (what /pay/{id} loads).
  const url = new URL(d.payment.hosted_payment_url);
  expect((await fetch(`${t.url}${url.pathname}${url.search}`)).status).toBe(200);
  const token = `pt_${d.payment.payment_id}.${url.searchParams.get('t')}`;
  const page = await t.api(`/api/dropin/v1/sessions/${token}`, { key: null });
  expect(page.status, page.text).toBe(200);
  expect(page.json.data.session).toMatchObject({ amount: expected.price, currency: expected.currency });
  expect(page.json.data.payment).toMatchObject({
    price_amount: expected.price,
    price_currency: expected.currency,
    pay_amount: expected.pay,
  });
  expect(page.json.data.payment.qr.payment_uri).toBe(d.qr.payment_uri);

  // The webhook: the same digits, signature checked by the receiver.
  await pay(d.blockchain.pay_currency, d.blockchain.pay_address, expected.pay, d.blockchain.network);
  const id = d.payment.payment_id;
  const [fin] = (
    await rcv.waitFor((all) =>
      all.some((x) => x.json?.payment?.payment_id === id && x.json.payment.payment_status === 'finished'),
    )
  ).filter((x) => x.json?.payment?.payment_id === id && x.json.payment.payment_status === 'finished');
  expect(fin?.verified).toBe(true);
  expect(fin?.json.payment.price_currency).toBe(expected.currency);
  expect(fin?.body).toContain(`"price_amount":${expected.price},`);
  expect(fin?.body).toContain(`"pay_amount":${expected.pay},`);
  expect(fin?.body).toContain(`"actually_paid":${expected.pay},`);
  const status = await t.api(`/api/v1/payments/${id}`);
  expect(status.json.data).toMatchObject({ payment_status: 'finished', price_currency: expected.currency });
  return d;
}

describe('price_currency: happy path', () => {
  it('prices in EUR: 19.99 EUR at 58500 EUR/BTC is 0.00034171 BTC, the same digits everywhere', async () => {
    // 19.99 / 58500 = 0.000341709401... BTC, rounded up to 8 decimals.
    await checkEverywhere(
      { amount: 19.99, price_currency: 'EUR', currency: 'btc' },
      { price: '19.99', currency: 'EUR', pay: '0.00034171' },
    );
  });

  it('prices in JPY (no decimals): 2000 JPY at 450000 JPY/ETH is 0.00444444444444445 ETH (15 significant digits)', async () => {
    // 2000 / 450000 = 0.0044444... ETH: 15 significant digits, rounded up.
    await checkEverywhere(
      { amount: 2000, price_currency: 'JPY', currency: 'eth' },
      { price: '2000', currency: 'JPY', pay: '0.00444444444444445' },
    );
  });

  it('takes a lower-case code: usd prices exactly as no price_currency does (today’s rule)', async () => {
    const plain = await t.api('/api/v1/payments', { body: { ...order, amount: 100, currency: 'btc' } });
    const lower = await t.api('/api/v1/payments', {
      body: { ...order, amount: 100, currency: 'btc', price_currency: 'usd' },
    });
    expect(lower.status, lower.text).toBe(201);
    expect(lower.json.data.pricing).toMatchObject({ price_amount: 100, price_currency: 'USD', pay_amount: 0.00153847 });
    expect(payAmountText(lower.text)).toBe(payAmountText(plain.text));
    const eur = await t.api('/api/v1/payments', {
      body: { ...order, amount: 5, currency: 'btc', price_currency: 'eur' },
    });
    expect(eur.json.data.pricing.price_currency).toBe('EUR');
  });

  it('rounds a price half-up to the currency’s minor units, as USD always has (documented)', async () => {
    // 12.345 EUR -> 12.35 EUR; 999.5 JPY -> 1000 JPY; KWD keeps three decimals.
    const eur = await t.api('/api/v1/payments', {
      body: { ...order, amount: 12.345, currency: 'btc', price_currency: 'EUR' },
    });
    expect(eur.status, eur.text).toBe(201);
    expect(eur.text).toContain('"price_amount":12.35,');
    // 12.35 / 58500 = 0.000211111... -> 0.00021112
    expect(payAmountText(eur.text)).toBe('0.00021112');
    const jpy = await t.api('/api/v1/payments', {
      body: { ...order, amount: 999.5, currency: 'btc', price_currency: 'JPY' },
    });
    expect(jpy.text).toContain('"price_amount":1000,');
    const kwd = await t.api('/api/v1/payments', {
      body: { ...order, amount: 10.125, currency: 'btc', price_currency: 'KWD' },
    });
    expect(kwd.text).toContain('"price_amount":10.125,');
    // BTC = 65000 x 0.3 = 19500 KWD; 10.125 / 19500 = 0.000519230769... -> 0.00051924
    expect(payAmountText(kwd.text)).toBe('0.00051924');
  });

  it('prices a payment link in its currency too (same creation path)', async () => {
    const r = await t.api('/api/v1/payment-links', {
      body: { ...order, amount: 19.99, currency: 'btc', price_currency: 'EUR' },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.json.data.pricing).toMatchObject({ price_amount: 19.99, price_currency: 'EUR', pay_amount: 0.00034171 });
  });

  it('uses the merchant’s default currency when the request names none, and USD until one is set', async () => {
    const before = await t.api('/api/v1/payments', { body: { ...order, amount: 50, currency: 'btc' } });
    expect(before.json.data.pricing.price_currency).toBe('USD');
    await updateMerchant(
      t.service.deps.db,
      clock,
      t.merchant.merchant_id,
      { defaultCurrency: 'GBP' },
      t.service.deps.keys,
    );
    try {
      const r = await t.api('/api/v1/payments', { body: { ...order, amount: 52, currency: 'btc' } });
      // 65000 x 0.8 = 52000 GBP/BTC: 52 GBP is exactly 0.001 BTC.
      expect(r.json.data.pricing).toMatchObject({ price_amount: 52, price_currency: 'GBP', pay_amount: 0.001 });
      const est = await t.api('/api/v1/estimate?amount=52&currency=btc');
      expect(est.json.data).toMatchObject({ currency_from: 'gbp', estimated_amount: 0.001, rate: 52000 });
      // The API's default stays USD for /minimum-amount.
      const min = await t.api('/api/v1/minimum-amount?currency_from=btc&currency_to=btc');
      expect(min.json.data.fiat_equivalent).toBe('usd');
      // Naming a currency still wins over the default.
      const usd = await t.api('/api/v1/payments', {
        body: { ...order, amount: 100, currency: 'btc', price_currency: 'USD' },
      });
      expect(usd.json.data.pricing).toMatchObject({ price_currency: 'USD', pay_amount: 0.00153847 });
    } finally {
      await updateMerchant(
        t.service.deps.db,
        clock,
        t.merchant.merchant_id,
        { defaultCurrency: 'USD' },
        t.service.deps.keys,
      );
    }
  });
});

describe('GET /estimate and GET /minimum-amount in other currencies', () => {
  it('estimates by the creation rule: currency_from in any case, answered lower case', async () => {
    const r = await t.api('/api/v1/estimate?amount=19.99&currency=BTC&currency_from=EUR');
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({
      amount: 19.99,
      currency_from: 'eur',
      currency_to: 'btc',
      estimated_amount: 0.00034171,
      rate: 58500,
      raw: { currency_from: 'eur', amount_from: 19.99, estimated_amount: 0.00034171 },
    });
    const jpy = await t.api('/api/v1/estimate?amount=1000&currency=eth&currency_from=jpy');
    expect(jpy.text).toContain('"estimated_amount":0.00222222222222223');
    expect(jpy.json.data.rate).toBe(450000);
    // Before the 15-digit cut: 1000 / 450000 rounded up to 18 decimals.
    expect(jpy.text).toContain('"estimated_amount":0.002222222222222223}');
  });

  it('gives the minimum’s worth in fiat_equivalent, rounded to that currency’s minor units', async () => {
    const usd = await t.api('/api/v1/minimum-amount?currency_from=btc&currency_to=btc');
    const jpy = await t.api('/api/v1/minimum-amount?currency_from=btc&currency_to=btc&fiat_equivalent=JPY');
    expect(jpy.status, jpy.text).toBe(200);
    expect(jpy.json.data.fiat_equivalent).toBe('jpy');
    expect(jpy.json.data.min_amount).toBe(usd.json.data.min_amount);
    // min_amount BTC x 9750000 JPY/BTC, to whole yen, half-up.
    const units = BigInt(
      String(usd.text.match(/"min_amount":([0-9.]+)/)?.[1])
        .replace('.', '')
        .replace(/^0+/, ''),
    );
    const [, frac = ''] = String(usd.text.match(/"min_amount":([0-9.]+)/)?.[1]).split('.');
    const scale = 10n ** BigInt(frac.length);
    const yenTimesScale = units * 9_750_000n;
    const yen = (yenTimesScale * 2n + scale) / (2n * scale);
    expect(jpy.json.data.fiat_equivalent_amount).toBe(Number(yen));
    expect(Number.isInteger(jpy.json.data.fiat_equivalent_amount)).toBe(true);
  });
});

describe('price_currency: errors', () => {
  async function paymentCount(): Promise<number> {
    return Number(
      (
        await t.service.deps.db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  }

  it('refuses an unlisted currency with 422 naming price_currency, and writes nothing', async () => {
    const before = await paymentCount();
    for (const code of ['XXX', 'Eur', 'BTC', '', 'EURO']) {
      const r = await t.api('/api/v1/payments', {
        body: { ...order, amount: 10, currency: 'btc', price_currency: code },
      });
      expect(r.status, `${code}: ${r.text}`).toBe(422);
      expect(Object.keys(r.json.errors)).toEqual(['price_currency']);
      expect(r.json.errors.price_currency[0]).toMatch(/ISO 4217/);
    }
    const est = await t.api('/api/v1/estimate?amount=10&currency=btc&currency_from=xxx');
    expect(est.status).toBe(422);
    expect(Object.keys(est.json.errors)).toEqual(['currency_from']);
    const min = await t.api('/api/v1/minimum-amount?currency_from=btc&currency_to=btc&fiat_equivalent=xxx');
    expect(min.status).toBe(422);
    expect(Object.keys(min.json.errors)).toEqual(['fiat_equivalent']);
    expect(await paymentCount()).toBe(before);
  });

  it('refuses a price that rounds to nothing, or is below the minimum, naming amount in the price’s currency', async () => {
    const before = await paymentCount();
    const zero = await t.api('/api/v1/payments', {
      body: { ...order, amount: 0.4, currency: 'btc', price_currency: 'JPY' },
    });
    expect(zero.status).toBe(422);
    expect(zero.json.errors.amount[0]).toBe('Amount must be at least 1 JPY');
    const below = await t.api('/api/v1/payments', {
      body: { ...order, amount: 100, currency: 'btc', price_currency: 'JPY' },
    });
    expect(below.status).toBe(422);
    expect(below.json.errors.amount[0]).toMatch(/^Amount 100 JPY is below the minimum of \d+ JPY for BTC/);
    expect(await paymentCount()).toBe(before);
  });
});
