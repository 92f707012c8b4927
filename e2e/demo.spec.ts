import { expect, shot, test } from './fixtures.js';

test('a newcomer buys on the demo storefront with "Simulate payment"', async ({ page, world }, testInfo) => {
  await page.goto(`${world.service.url}/demo/`);
  await expect(page.getByText('Test mode: nothing here costs real money.')).toBeVisible();
  await shot(page, testInfo, 'demo-store');
  await page.getByRole('button', { name: 'Buy the T-shirt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
  await dialog
    .getByRole('button', { name: /\bETH\b/ })
    .first()
    .click();
  await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('ETH');
  await dialog.getByRole('button', { name: 'Simulate payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('listitem')).toContainText(/T-shirt: paid [0-9.]+ ETH \(payment pay_/);
  await shot(page, testInfo, 'demo-paid');
});

test('the demo storefront opened from another origin finds the service with ?service=', async ({ page, world }) => {
  await page.goto(`${world.shopUrl}/demo/?service=${encodeURIComponent(world.service.url)}`);
  await page.getByRole('button', { name: 'Buy the hoodie with USDT' }).click();
  await expect(page.getByRole('dialog').locator('[data-field="pay_currency"]')).toHaveText('USDTERC20');
});
