import type { Locator, Page } from '@playwright/test';
import { type Dash, expect, expectAccessible, signIn, test } from './dashboard-fixtures.js';
import { shot, type World } from './fixtures.js';

/*
 * Items 5, 7, 8 and 9 of the merchant's walk through the dashboard (issue 23), each reproduced on the code before
 * its fix: the webhook URL form's messages, tables at 390 px, the key banner after "Done", and money formats.
 */

/** A finished BTC payment of the worker's test merchant for `usd` dollars, paid on the sandbox chain. */
async function paidPayment(world: World, usd: number, orderId: string) {
  const created = await world.service.api('/api/v1/payments', {
    body: { amount: usd, currency: 'btc', email: 'walk@buyer.example', order_id: orderId },
  });
  const p = created.json.data;
  await world.service.api('/api/v1/sandbox/transfers', {
    body: { currency: 'BTC', address: p.blockchain.pay_address, amount: String(p.blockchain.pay_amount) },
  });
  await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'btc' } });
  return { id: p.payment.payment_id as string, payAmount: String(p.blockchain.pay_amount) };
}

async function open(page: Page, dash: Dash, what: string, heading: string) {
  await page.goto(dash.url(dash.test.merchant_id, what));
  if (await page.getByLabel('Password').isVisible()) await signIn(page);
  await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
}

/** Inside the viewport's width: reachable without scrolling sideways. */
async function expectOnScreen(page: Page, what: Locator) {
  const width = page.viewportSize()?.width ?? 0;
  await expect(what).toBeVisible();
  const box = await what.boundingBox();
  expect(box, 'on the page').not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
}

/** Neither the page nor any table box scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const wide = await page.evaluate(() => {
    const boxes = [document.documentElement, ...document.querySelectorAll<HTMLElement>('.table-wrap')];
    return boxes
      .filter((b) => b.scrollWidth > b.clientWidth)
      .map((b) => `${b.className || b.tagName}: ${b.scrollWidth}`);
  });
  expect(wide, `sideways scroll on ${what}`).toEqual([]);
}

test.describe('the dashboard walk (issue 23)', () => {
  test('money: USD as the checkout prints it ($59.90), crypto as exact digits with the asset, on every page', async ({
    page,
    world,
    dash,
  }) => {
    const paid = await paidPayment(world, 59.9, 'walk-money');
    await open(page, dash, 'payments', 'Payments');
    const row = page.locator(`tr[data-payment="${paid.id}"]`);
    await expect(row.locator('[data-status]')).toHaveText('finished');
    const cells = row.locator('td.num');
    await expect(cells.nth(0)).toHaveText('$59.90');
    // The amount cell also holds the button that copies the payment's address.
    await expect(cells.nth(1)).toHaveText(`${paid.payAmount} BTCCopy`);
    await expect(cells.nth(2)).toHaveText(`${paid.payAmount} BTC`);

    await row.getByRole('link').click();
    const facts = page.locator('.facts');
    await expect(facts.locator('div', { has: page.getByText('Price', { exact: true }) }).locator('dd')).toHaveText(
      '$59.90',
    );
    await expect(page.locator(`tr[data-deposit] td.num`)).toHaveText(`${paid.payAmount} BTC`);

    // A token by its ticker and network, as a wallet names it, never by the internal code.
    const usdt = await world.service.api('/api/v1/payments', {
      body: { amount: 25, currency: 'usdterc20', email: 'walk@buyer.example', order_id: 'walk-usdt' },
    });
    const usdtId: string = usdt.json.data.payment.payment_id;
    await open(page, dash, 'payments', 'Payments');
    await expect(page.locator(`tr[data-payment="${usdtId}"] td.num`).nth(1)).toHaveText('25 USDT (Ethereum)Copy');
    await expect(page.getByLabel('Asset').locator('option[value="USDTERC20"]')).toHaveText('USDT (Ethereum)');

    await open(page, dash, 'balances', 'Balances');
    const btc = page.locator('tr[data-asset="BTC"] td.num');
    await expect(btc.nth(0)).toHaveText(/^\d+(\.\d+)? BTC$/);
    // USD always with its sign and 2 decimals, grouped as the reader's locale groups ("$1,234.50", never "1234.5").
    await expect(btc.nth(1)).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    await expect(btc.nth(3)).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
  });

  test('API keys: "Done, I saved it" puts away the "Key created" banner with the key', async ({ page, dash }) => {
    await open(page, dash, 'keys', 'API keys');
    await page.getByLabel('Kind').selectOption('public');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.locator('[data-secret]')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Key created' })).toBeVisible();
    await page.getByRole('button', { name: 'Done, I saved it' }).click();
    await expect(page.locator('[data-secret]')).toHaveCount(0);
    await expect(page.getByText('Key created')).toHaveCount(0);
  });

  test.describe('with the refusals the form shows (422)', () => {
    test.use({ allowedErrors: /status of 422/ });

    test('webhook URL: the URL in effect is shown; a refused save clears the last "saved" and sits under the hint', async ({
      page,
      dash,
    }) => {
      await page.goto(dash.url(dash.live.merchant_id, 'webhooks'));
      await signIn(page);
      await expect(page.getByRole('heading', { name: 'Webhooks', exact: true })).toBeVisible();
      const good = 'https://93.184.216.34/walk-hook';
      await page.getByLabel('Webhook URL').fill(good);
      await page.getByRole('button', { name: 'Save URL' }).click();
      await expect(page.getByText('Webhook URL saved')).toBeVisible();
      await expect(page.locator('[data-field="endpoint-url"]')).toHaveText(good);

      await page.getByLabel('Webhook URL').fill('ftp://93.184.216.34/hook');
      await page.getByRole('button', { name: 'Save URL' }).click();
      const error = page.locator('#url-err');
      await expect(error).toBeVisible();
      await expect(page.getByText('Webhook URL saved')).toHaveCount(0);
      // The refused text is not in effect: the saved one still is.
      await expect(page.locator('[data-field="endpoint-url"]')).toHaveText(good);
      // The error is a line of its own under the hint, not run into it.
      const hint = await page.locator('#url-hint').boundingBox();
      const err = await error.boundingBox();
      expect(err && hint && err.y >= hint.y + hint.height - 1).toBe(true);
      await expect(page.getByLabel('Webhook URL')).toHaveAttribute('aria-invalid', 'true');
      await expectAccessible(page, 'webhooks with a refused URL');
    });
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('every table is a list of cards: key actions, amounts and attempts on screen, nothing scrolls sideways', async ({
      page,
      world,
      dash,
    }, testInfo) => {
      const paid = await paidPayment(world, 1234.5, 'walk-narrow-order');
      await open(page, dash, 'payments', 'Payments');
      const row = page.locator(`tr[data-payment="${paid.id}"]`);
      await expect(row.locator('[data-status]')).toHaveText('finished');
      for (const cell of await row.locator('td:not(:empty)').all()) await expectOnScreen(page, cell);
      await expect(row.locator('td[data-label="Amount"]')).toHaveText(`${paid.payAmount} BTCCopy`);
      await expectNoSidewaysScroll(page, 'payments');
      await expectAccessible(page, 'payments at 390 px');
      await shot(page, testInfo, 'dash-payments-390');

      await row.getByRole('link').click();
      await expect(page.locator('tr[data-deposit]')).toBeVisible();
      for (const cell of await page.locator('tr[data-deposit] td:not(:empty)').all()) await expectOnScreen(page, cell);
      await expectNoSidewaysScroll(page, 'a payment');

      await open(page, dash, 'keys', 'API keys');
      const key = page.locator('tr[data-key]').first();
      await expectOnScreen(page, key.getByRole('button', { name: /^Rotate/ }));
      await expectOnScreen(page, key.getByRole('button', { name: /^Deactivate/ }));
      await expectNoSidewaysScroll(page, 'keys');
      await expectAccessible(page, 'keys at 390 px');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectAccessible(page, 'keys at 390 px, dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await shot(page, testInfo, 'dash-keys-390');

      await open(page, dash, 'balances', 'Balances');
      for (const cell of await page.locator('tr[data-asset="BTC"] td:not(:empty)').all())
        await expectOnScreen(page, cell);
      await expectNoSidewaysScroll(page, 'balances');

      await open(page, dash, 'webhooks', 'Webhooks');
      await page.getByRole('button', { name: 'Send test event' }).click();
      const attempt = page.locator('.test-delivery [data-field="status-code"]');
      await expect(attempt).toHaveText('200', { timeout: 20_000 });
      await expectOnScreen(page, attempt);
      await expectNoSidewaysScroll(page, 'webhooks');
    });
  });
});
