import { merchantClient } from '../examples/create-payment.js';
import { expect, shot, test } from './fixtures.js';

test.describe('the API reference at /docs', () => {
  test('renders every operation and the webhook under the service CSP, without a script', async ({
    page,
    world,
  }, testInfo) => {
    // The whole reference in one page (every operation, schema and example) takes Chromium a while to lay out.
    test.slow();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const res = await page.goto(`${world.service.url}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    await expect(page.getByRole('heading', { level: 1 })).toContainText('merchant API');
    await expect(page.getByRole('heading', { name: /POST \/payments$/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: /^GET \/payments\/\{payment_id\}$/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: /POST payment\.updated/ })).toBeVisible();
    // The inline stylesheet applied (the policy allows inline styles, not inline scripts).
    const methodColor = await page
      .locator('.method.post')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(methodColor).toBe('rgb(21, 128, 61)');
    expect(await page.locator('script').count()).toBe(0);
    await page.getByRole('link', { name: 'GET /balances' }).click();
    await expect(page).toHaveURL(/#getBalances$/);
    // The screen the link leads to: the whole reference is now so long that a full-page capture outlasts the test.
    await shot(page, testInfo, 'docs', false);
    expect(violations).toEqual([]);
  });

  test('a payment link made with the typed client (examples/) opens on the hosted page', async ({ page, world }) => {
    const client = merchantClient(world.service.url, world.service.merchant.secret_key);
    const { data, error } = await client.POST('/payment-links', {
      body: { amount: 12.5, currency: 'btc', email: 'typed@example.com', order_id: 'E2E-1' },
    });
    expect(error).toBeUndefined();
    await page.goto(data?.data.payment.hosted_payment_url ?? '');
    const checkout = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(checkout.locator('[data-field="pay_currency"]')).toHaveText('BTC');
    await expect(checkout.locator('[data-field="pay_address"]')).toHaveText(data?.data.blockchain.pay_address ?? '-');
  });
});
