import type { TestService } from '../server/testing/harness.js';
import { expect, shopOptions, shot, test } from './fixtures.js';
import { decodeQrPng } from './qr.js';

/*
 * The drop-in priced in the merchant's currency (issue 31, item 3): open({ amount, currency }) shows the price in
 * that currency, formatted for the customer's locale, and the exact crypto amount the merchant API holds.
 * Test-mode rates (core/pricing/fixed-rates.ts): BTC = 65000 USD x 0.9 = 58500 EUR = 65000 x 150 = 9750000 JPY.
 */

/**
 * The status read of the payment the popup shows, found in the store by its address (the worker's service is shared
 * and runs on a test clock, so "the newest payment" can be another test's), with pay_amount's digits as sent.
 */
async function shownPayment(world: { service: TestService }, address: string) {
  const row = await world.service.service.deps.db
    .selectFrom('payments')
    .select('id')
    .where('pay_address', '=', address)
    .executeTakeFirstOrThrow();
  const status = await world.service.api(`/api/v1/payments/${row.id}`);
  const data = status.json.data as { price_amount: number; price_currency: string; pay_address: string };
  return { data, payAmount: /"pay_amount":([0-9.]+)/.exec(status.text)?.[1] };
}

test.describe('drop-in priced in another currency than USD', () => {
  test('open({ amount: 19.99, currency: "EUR" }) shows €19.99 and the API’s exact BTC amount, in the QR too', async ({
    shop: page,
    world,
  }, testInfo) => {
    await shopOptions(page, { amount: 19.99, currency: 'EUR', locale: 'en' });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(dialog.locator('[data-field="price_amount"]')).toHaveText('€19.99');
    await dialog.getByRole('searchbox', { name: 'Search currencies' }).fill('bitcoin');
    await dialog.getByRole('button', { name: /\bBTC\b/ }).click();

    // 19.99 / 58500 = 0.000341709... rounded up to 8 decimals.
    const amount = dialog.locator('[data-field="pay_amount"]');
    await expect(amount).toHaveText('0.00034171');
    const address = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    const api = await shownPayment(world, address.trim());
    expect(api.data).toMatchObject({ price_amount: 19.99, price_currency: 'EUR' });
    expect(api.payAmount).toBe('0.00034171');
    const qr = dialog.locator('img[data-field="qr"]');
    await expect(qr).toBeVisible();
    expect(decodeQrPng(await qr.screenshot())).toBe(`bitcoin:${api.data.pay_address}?amount=${api.payAmount}`);
    await shot(page, testInfo, 'eur-qr');
  });

  test('a German customer sees a yen price as ¥ without decimals, and a preset asset’s exact amount', async ({
    shop: page,
    world,
  }, testInfo) => {
    await shopOptions(page, { amount: 2000, currency: 'jpy', cryptoCurrency: 'BTC', locale: 'de' });
    await page.getByRole('button', { name: /Buy the mug/ }).click();
    const dialog = page.getByRole('dialog');
    // German formatting of JPY: digits grouped with a dot, no decimals, the sign after a no-break space.
    await expect(dialog.locator('[data-field="price_amount"]')).toHaveText('2.000\u00a0¥');
    // 2000 / 9750000 = 0.000205128... rounded up to 8 decimals.
    await expect(dialog.locator('[data-field="pay_amount"]')).toHaveText('0.00020513');
    const address = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    const api = await shownPayment(world, address.trim());
    expect(api.data).toMatchObject({ price_amount: 2000, price_currency: 'JPY' });
    expect(api.payAmount).toBe('0.00020513');
    await shot(page, testInfo, 'jpy-de');
  });
});
