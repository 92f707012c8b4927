import { randomUUID } from 'node:crypto';
import { expect, shopOptions, test } from './fixtures.js';

/*
 * Issue 23 item 10 in the browser: "Choose another currency" and a closed popup opened again for the same order
 * leave one waiting payment, not one per try (the earlier one expires; README, drop-in: abandoned choices).
 */
test('another currency, then the popup closed and the order opened again: one waiting payment for the order', async ({
  shop: page,
  world,
}) => {
  const reference = `abandon-${randomUUID()}`;
  await shopOptions(page, { reference });
  const db = world.service.service.deps.db;
  const ofOrder = () =>
    db
      .selectFrom('payments')
      .select(['pay_address', 'status'])
      .where('order_id', '=', reference)
      .orderBy('created_at')
      .execute();
  const dialog = page.getByRole('dialog');
  const address = dialog.locator('[data-field="pay_address"]');

  await page.getByRole('button', { name: 'Buy the mug' }).click();
  await dialog.getByRole('button', { name: /\bBTC\b/ }).click();
  await expect(address).toBeVisible();
  const btc = (await address.textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Choose another currency' }).click();
  await dialog.getByRole('button', { name: /\bLTC\b/ }).click();
  await expect(address).not.toHaveText(btc);
  const ltc = (await address.textContent()) ?? '';
  expect(await ofOrder()).toEqual([
    { pay_address: btc, status: 'expired' },
    { pay_address: ltc, status: 'waiting' },
  ]);

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Buy the mug' }).click();
  await dialog.getByRole('button', { name: /\bDOGE\b/ }).click();
  await expect(address).toBeVisible();
  const doge = (await address.textContent()) ?? '';
  expect(await ofOrder()).toEqual([
    { pay_address: btc, status: 'expired' },
    { pay_address: ltc, status: 'expired' },
    { pay_address: doge, status: 'waiting' },
  ]);
});
