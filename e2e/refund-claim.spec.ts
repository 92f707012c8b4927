import { expect, expectAccessible, signIn, test } from './dashboard-fixtures.js';
import { shot } from './fixtures.js';

/* Refund claim links (issue 30 item 2) in real Chromium: the owner makes the refund with a claim link in the
 * dashboard, the customer gives the address on the hosted page at 390 px, the owner confirms it. */

const CUSTOMER_LTC = 'ltc1qqypqxpq9qcrsszg2pvxq6rs0zqg3yyc5dyg36p';

test('the customer gives the refund address through the claim link; the owner confirms it before sending', async ({
  page,
  browser,
  world,
  dash,
}, testInfo) => {
  const created = await world.service.api('/api/v1/payments', {
    body: { amount: 20, currency: 'ltc', email: 'claim@buyer.example', order_id: 'order-claim' },
  });
  const p = created.json.data;
  const id: string = p.payment.payment_id;
  await world.service.api('/api/v1/sandbox/transfers', {
    body: { currency: 'LTC', address: p.blockchain.pay_address, amount: String(p.blockchain.pay_amount) },
  });
  await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'ltc' } });

  await page.goto(`${dash.url(dash.test.merchant_id, 'payments')}/${id}`);
  await signIn(page);
  const form = page.getByRole('form', { name: 'Refund this payment' });
  await form.getByLabel('Amount in').fill('0.1');
  await form.getByLabel('Ask the customer for the address with a claim link').check();
  await form.getByRole('button', { name: 'Create refund' }).click();
  const row = page.locator('tr[data-refund]').first();
  await expect(row.locator('[data-refund-status]')).toHaveText('awaiting address');
  const link = row.locator('[data-claim-url]');
  await expect(link).toBeVisible();
  const url = (await link.textContent()) ?? '';
  expect(url).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page, 'refund with claim link');

  // The customer, on a phone, in German.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
  const customer = await phone.newPage();
  await customer.goto(url);
  await expect(customer.getByRole('heading', { name: 'Erstattung von Test shop' })).toBeVisible();
  await expect(customer.locator('[data-field="amount"]')).toHaveText('0.1 LTC');
  await expectAccessible(customer, 'claim page');
  const wide = await customer.evaluate(() => document.documentElement.scrollWidth);
  expect(wide).toBeLessThanOrEqual(390);
  await shot(customer, testInfo, 'refund-claim-390');
  const field = customer.getByLabel('Ihre LTC-Adresse im Netzwerk Litecoin');
  await field.fill('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
  await customer.getByRole('button', { name: 'Adresse senden' }).click();
  await expect(customer.getByRole('alert')).toContainText('keine gültige LTC-Adresse');
  await expectAccessible(customer, 'claim page with an error');
  await customer.getByLabel('Ihre LTC-Adresse im Netzwerk Litecoin').fill(CUSTOMER_LTC);
  await customer.getByRole('button', { name: 'Adresse senden' }).click();
  await expect(customer.getByRole('status')).toContainText('Vielen Dank');
  await expect(customer.locator('[data-field="address"]')).toHaveText(CUSTOMER_LTC);
  await expectAccessible(customer, 'claim page done');
  await customer.goto(url);
  await expect(customer.getByText('Dieser Link wurde bereits verwendet')).toBeVisible();
  await phone.close();

  // The owner sees the customer's address unconfirmed, with no send step, and confirms it.
  await page.reload();
  await expect(row.locator('[data-address-unconfirmed]')).toBeVisible();
  await expect(row).toContainText(CUSTOMER_LTC);
  await row.getByRole('button', { name: 'Confirm address' }).click();
  const dialog = page.getByRole('dialog', { name: /^Confirm the address of refund rfd_/ });
  await expect(dialog).toContainText(CUSTOMER_LTC);
  await expectAccessible(page, 'confirm address dialog');
  await dialog.getByRole('button', { name: 'Confirm address' }).click();
  await expect(page.getByText('Address confirmed: the refund is ready to send')).toBeVisible();
  await expect(row.locator('[data-refund-status]')).toHaveText('ready to send');
  await expect(row.getByRole('button', { name: 'Confirm address' })).toHaveCount(0);
  const audit = await world.service.service.deps.db
    .selectFrom('audit_log')
    .select(['action', 'target'])
    .where('action', '=', 'refund.confirm_address')
    .execute();
  expect(audit).toHaveLength(1);
});
