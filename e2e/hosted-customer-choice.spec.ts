import { expect, expectAccessible, signIn, test } from './dashboard-fixtures.js';
import { shot } from './fixtures.js';

/*
 * Issue 27's walk: Payment links -> Currency "Let the customer choose on the page" -> Open showed a BTC QR with no
 * "Choose another currency", and "Start again" re-quoted BTC. The page now offers the picker, before and after the
 * quote expires; a link whose merchant chose the asset still does not.
 */

test.describe('the hosted page of a link that leaves the currency to the customer', () => {
  test('offers "Choose another currency"; the choice moves the page to the new payment, and expiry offers it again', async ({
    page,
    world,
    dash,
  }, testInfo) => {
    await page.goto(dash.url(dash.test.merchant_id, 'sell'));
    await signIn(page);
    const form = page.getByRole('form', { name: 'New payment link' });
    await form.getByLabel('Amount (USD)').fill('25');
    await expect(form.getByLabel('Currency')).toHaveValue('');
    await form.getByLabel('Customer e-mail').fill('chooser@buyer.example');
    await form.getByRole('button', { name: 'Create payment link' }).click();
    const url = (await page.locator('[data-field="hosted-url"] a', { hasText: 'Open' }).getAttribute('href')) ?? '';
    expect(url).toMatch(/\/pay\/pay_\w+\?t=/);
    const first = /\/pay\/(pay_\w+)/.exec(url)?.[1];

    await page.goto(url);
    const checkout = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(checkout.locator('[data-field="pay_currency"]')).toHaveText('BTC');
    await checkout.getByRole('button', { name: 'Choose another currency' }).click();
    await expect(checkout.getByRole('heading', { name: 'Choose a currency' })).toBeVisible();
    await expectAccessible(page, 'the hosted page picker');
    await shot(page, testInfo, 'hosted-customer-picker');
    await checkout.getByRole('button', { name: /Litecoin/ }).click();
    await expect(checkout.locator('[data-field="pay_currency"]')).toHaveText('LTC');
    await expect(page).not.toHaveURL(new RegExp(`/pay/${first}\\?`));
    const second = /\/pay\/(pay_\w+)/.exec(page.url())?.[1];
    const chosen = await world.service.api(`/api/v1/payments/${second}`);
    expect(chosen.json.data.pay_currency).toBe('LTC');

    // The new payment's page (a reload) is still the customer's to choose.
    await page.reload();
    await expect(checkout.locator('[data-field="pay_currency"]')).toHaveText('LTC');
    await expect(checkout.getByRole('button', { name: 'Choose another currency' })).toBeVisible();

    // After expiry, starting again may be in another asset too.
    world.clock.offset = 2 * 60 * 60 * 1000;
    try {
      await page.reload();
      await expect(checkout.getByRole('heading', { name: 'This quote has expired' })).toBeVisible();
      await expect(checkout.getByRole('button', { name: 'Start again' })).toBeVisible();
      await checkout.getByRole('button', { name: 'Choose another currency' }).click();
      await expect(checkout.getByRole('heading', { name: 'Choose a currency' })).toBeVisible();
      await checkout.getByRole('button', { name: /Dogecoin/ }).click();
      await expect(checkout.locator('[data-field="pay_currency"]')).toHaveText('DOGE');
      await expectAccessible(page, 'the hosted page after choosing again');
    } finally {
      world.clock.offset = 0;
    }
  });

  test('a link whose merchant chose the asset offers no other currency', async ({ page, world }) => {
    const created = await world.service.api('/api/v1/payment-links', {
      body: { amount: 25, currency: 'ltc', email: 'fixed@buyer.example' },
    });
    await page.goto(created.json.data.payment.hosted_payment_url);
    const checkout = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(checkout.locator('[data-field="pay_currency"]')).toHaveText('LTC');
    await expect(checkout.locator('[data-field="qr"]')).toBeVisible();
    await expect(checkout.getByRole('button', { name: 'Choose another currency' })).toHaveCount(0);
  });
});
