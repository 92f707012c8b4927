import { expect, shot, test } from './fixtures.js';
import { decodeQrPng } from './qr.js';

test.describe('the hosted payment page', () => {
  test('a payment link page pays with the simulate button and redirects to success_url', async ({
    page,
    world,
  }, testInfo) => {
    // The merchant's success page lives elsewhere: answered here so the run needs no network.
    await page.route('https://shop.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Thanks for your order</h1>' }),
    );
    const created = await world.service.api('/api/v1/payment-links', {
      body: {
        amount: 19.99,
        currency: 'eth',
        email: 'cy@example.com',
        order_id: 'L-7',
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/cancel',
      },
    });
    expect(created.status).toBe(201);
    const url: string = created.json.data.payment.hosted_payment_url;
    await page.goto(url);
    const checkout = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(checkout.locator('[data-field="pay_currency"]')).toHaveText('ETH');
    await expect(checkout.getByRole('button', { name: 'Close' })).toHaveCount(0);
    await expect(checkout.getByRole('link', { name: 'Cancel and return to the store' })).toHaveAttribute(
      'href',
      'https://shop.example/cancel',
    );
    const address = (await checkout.locator('[data-field="pay_address"]').textContent()) ?? '';
    const decoded = decodeQrPng(await checkout.locator('img[data-field="qr"]').screenshot());
    expect(decoded).toMatch(new RegExp(`^ethereum:${address}@1\\?value=\\d+$`));
    await shot(page, testInfo, 'hosted-qr');
    await checkout.getByRole('button', { name: 'Simulate payment' }).click();
    await expect(checkout.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    await expect(checkout.getByText('Returning to the store…')).toBeVisible();
    await shot(page, testInfo, 'hosted-success');
    await page.waitForURL('https://shop.example/ok');
    await expect(page.getByRole('heading', { name: 'Thanks for your order' })).toBeVisible();
    const status = await world.service.api(`/api/v1/payments/${created.json.data.payment.payment_id}`);
    expect(status.json.data.payment_status).toBe('finished');
  });

  test('a direct payment opens on its hosted page too; cancel leads back to the store', async ({ page, world }) => {
    await page.route('https://shop.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Order cancelled</h1>' }),
    );
    const created = await world.service.api('/api/v1/payments', {
      body: { amount: 12, currency: 'sol', email: 'di@example.com', cancel_url: 'https://shop.example/cancel' },
    });
    await page.goto(created.json.data.payment.hosted_payment_url);
    const checkout = page.getByRole('dialog');
    await expect(checkout.locator('[data-field="pay_amount"]')).toHaveText(
      String(created.json.data.pricing.pay_amount),
    );
    await checkout.getByRole('link', { name: 'Cancel and return to the store' }).click();
    await page.waitForURL('https://shop.example/cancel');
  });

  test('after expiry the hosted page retries with a new payment and moves to its address', async ({
    page,
    world,
  }, testInfo) => {
    const created = await world.service.api('/api/v1/payment-links', {
      body: { amount: 15, currency: 'ltc', email: 'ed@example.com' },
    });
    const firstId: string = created.json.data.payment.payment_id;
    await page.goto(created.json.data.payment.hosted_payment_url);
    const checkout = page.getByRole('dialog');
    await expect(checkout.locator('[data-field="status"]')).toHaveText('Waiting for your payment');
    world.clock.offset = 40 * 60 * 1000;
    try {
      await expect(checkout.getByRole('heading', { name: 'This quote has expired' })).toBeVisible();
      await shot(page, testInfo, 'hosted-expired');
      await checkout.getByRole('button', { name: 'Start again' }).click();
      await expect(checkout.locator('[data-field="status"]')).toHaveText('Waiting for your payment');
      await expect(page).not.toHaveURL(new RegExp(firstId));
      const newId = /\/pay\/([a-z0-9_]+)\?t=/.exec(page.url())?.[1] ?? '';
      const fresh = await world.service.api(`/api/v1/payments/${newId}`);
      expect(fresh.json.data).toMatchObject({ payment_status: 'waiting', pay_currency: 'LTC', price_amount: 15 });
      // The new address is a real page of its own: a reload shows the same new payment.
      await page.reload();
      await expect(checkout.locator('[data-field="pay_address"]')).toHaveText(fresh.json.data.pay_address);
    } finally {
      world.clock.offset = 0;
    }
  });

  test.describe('without its token', () => {
    test.use({ allowedErrors: /status of 404/ });
    test('the payment id alone does not open the page', async ({ page, world }) => {
      const created = await world.service.api('/api/v1/payments', {
        body: { amount: 12, currency: 'btc', email: 'di@example.com' },
      });
      const res = await page.goto(`${world.service.url}/pay/${created.json.data.payment.payment_id}`);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Payment not found' })).toBeVisible();
      await expect(page.locator('body')).not.toContainText(created.json.data.blockchain.pay_address);
    });
  });
});
