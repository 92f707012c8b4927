import type { Page } from '@playwright/test';
import { createMerchant } from '../core/merchants/merchants.js';
import { addUser } from '../core/users/accounts.js';
import { redeliver } from '../core/webhooks/deliveries.js';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { expect, expectAccessible, OWNER, signIn, test, VIEWER } from './dashboard-fixtures.js';
import type { World } from './fixtures.js';
import { shot } from './fixtures.js';

/*
 * Issue 23 in Chromium: the dashboard as a merchant's daily tool. Each test has its own merchant whose webhooks go
 * to a receiver the test controls (500 with a body, then 200), so "what the receiver answered" and "updates
 * without a reload" are real.
 */

async function merchantWithReceiver(world: World) {
  const receiver = await startReceiver('');
  const deps = world.service.service.deps;
  const merchant = await createMerchant(deps.db, deps.clock, {
    name: 'Daily shop',
    mode: 'test',
    webhookUrl: receiver.url,
  });
  receiver.secret = merchant.webhook_secret;
  await addUser(deps, { merchantId: merchant.merchant_id, email: OWNER, role: 'owner' });
  await addUser(deps, { merchantId: merchant.merchant_id, email: VIEWER, role: 'viewer' });
  return { receiver, merchant };
}

/** Sends a delivery again from the service side, as its retry schedule would: nothing on the page is touched. */
async function retryFromService(world: World, merchantId: string, deliveryId: string) {
  const deps = world.service.service.deps;
  await redeliver(deps.db, merchantId, deliveryId, deps.clock.now());
  deps.webhooks.wake();
}

async function fitsWidth(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} fits the width`).toBeLessThanOrEqual(0);
}

test.describe('the dashboard as a daily tool', () => {
  let receiver: TestReceiver | undefined;
  test.afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  test("a payment's deliveries name their payment, status and sequence, show the receiver's answer, and update live", async ({
    page,
    world,
    dash,
  }, testInfo) => {
    const made = await merchantWithReceiver(world);
    receiver = made.receiver;
    const merchantId = made.merchant.merchant_id;
    made.receiver.reply = () => ({ status: 500, body: 'order 77 unknown here' });
    const created = await world.service.api('/api/v1/payments', {
      key: made.merchant.secret_key,
      body: { amount: 30, currency: 'btc', email: 'live@buyer.example', order_id: 'order-77' },
    });
    const p = created.json.data;
    const id: string = p.payment.payment_id;
    await world.service.api('/api/v1/sandbox/transfers', {
      key: made.merchant.secret_key,
      body: { currency: 'BTC', address: p.blockchain.pay_address, amount: String(p.blockchain.pay_amount) },
    });
    await world.service.api('/api/v1/sandbox/blocks', {
      key: made.merchant.secret_key,
      body: { count: 2, network: 'btc' },
    });
    await made.receiver.waitFor((all) => all.some((w) => w.json?.payment?.payment_status === 'finished'));

    await page.goto(dash.url(merchantId, `payments/${id}`));
    await signIn(page);
    await expect(page.getByRole('heading', { name: `Payment ${id}` })).toBeVisible();
    const finished = page.locator('[data-delivery]', {
      has: page.locator('[data-field="delivery-carries"] [data-status="finished"]'),
    });
    await expect(finished).toHaveCount(1);
    await expect(finished.locator('[data-field="delivery-payment"] a')).toHaveAttribute(
      'href',
      new RegExp(`/payments/${id}$`),
    );
    const sequence = (await world.service.api(`/api/v1/payments/${id}`, { key: made.merchant.secret_key })).json.data
      .sequence;
    await expect(finished.locator('[data-field="delivery-carries"]')).toContainText(`sequence ${sequence}`);
    // Its latest attempt (a slow run may already show the retry too, with the same answer).
    await expect(finished.locator('[data-field="error"]').first()).toHaveText('HTTP 500');
    await expect(finished.locator('[data-field="response-excerpt"]').first()).toHaveText('order 77 unknown here');
    await expect(finished).toContainText('next attempt');
    await finished.getByText('Payload as sent').click();
    const sent = made.receiver.received.find((w) => w.json?.payment?.payment_status === 'finished');
    await expect(finished.locator('[data-field="payload"]')).toHaveText(sent?.body ?? 'missing');
    await expect(page.getByRole('link', { name: /^http.*\/pay\// })).toHaveAttribute('href', /\/pay\/pay_\w+\?t=/);
    await expectAccessible(page, 'payment with failed deliveries');
    await shot(page, testInfo, 'dash-daily-payment-deliveries');

    // The receiver recovers and the service retries: the page shows the 200 without a reload.
    made.receiver.reply = () => ({ status: 200 });
    const deliveryId = (await finished.getAttribute('data-delivery')) ?? '';
    await retryFromService(world, merchantId, deliveryId);
    await expect(finished.locator('[data-status="succeeded"]').first()).toBeVisible();
    // The receiver's 500s (one, or more when a slow run let the schedule retry first), then the 200.
    const codes = finished.locator('[data-field="status-code"]');
    await expect(codes.last()).toHaveText('200');
    const answers = await codes.allTextContents();
    expect(answers.length).toBeGreaterThanOrEqual(2);
    expect(new Set(answers.slice(0, -1).map((a) => a.trim()))).toEqual(new Set(['500']));
    await expect(finished).not.toContainText('next attempt');
  });

  test('the test-event panel follows every attempt live; failed deliveries can be redelivered by range', async ({
    page,
    world,
    dash,
  }, testInfo) => {
    const made = await merchantWithReceiver(world);
    receiver = made.receiver;
    const merchantId = made.merchant.merchant_id;
    made.receiver.reply = () => ({ status: 503, body: 'maintenance until noon' });
    await page.goto(dash.url(merchantId, 'webhooks'));
    await signIn(page);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const panel = page.locator('.test-delivery [data-delivery]');
    await expect(panel.locator('[data-field="status-code"]')).toHaveText(['503']);
    await expect(panel.locator('[data-field="response-excerpt"]')).toHaveText('maintenance until noon');
    made.receiver.reply = () => ({ status: 200 });
    await retryFromService(world, merchantId, (await panel.getAttribute('data-delivery')) ?? '');
    await expect(panel.locator('[data-field="status-code"]')).toHaveText(['503', '200']);
    await expect(panel.locator('[data-status="succeeded"]')).toBeVisible();
    // The log below follows too.
    await expect(page.locator('section[aria-labelledby="log-h"] [data-field="status-code"]').first()).toBeVisible();

    await page.getByRole('button', { name: 'Redeliver all failed' }).click();
    await expect(page.getByText(/0 failed deliveries queued again/)).toBeVisible();
    await expectAccessible(page, 'webhooks with the test panel');
    await shot(page, testInfo, 'dash-daily-webhooks');
  });

  test('payments: the URL sets the controls, search by the id as shown and by e-mail, sort, export, copy', async ({
    page,
    world,
    dash,
    context,
  }, testInfo) => {
    const made = await merchantWithReceiver(world);
    receiver = made.receiver;
    const merchantId = made.merchant.merchant_id;
    const ids: string[] = [];
    for (const [amount, email] of [
      [12, 'first@buyer.example'],
      [99, 'Ann.Search@Buyer.example'],
      [40, 'third@buyer.example'],
    ] as const) {
      const r = await world.service.api('/api/v1/payments', {
        key: made.merchant.secret_key,
        body: { amount, currency: 'ltc', email, order_id: `o-${amount}` },
      });
      ids.push(r.json.data.payment.payment_id);
    }
    await page.goto(`${dash.url(merchantId, 'payments')}?status=waiting`);
    await signIn(page);
    await expect(page.locator('tbody tr')).toHaveCount(3);
    // Walk item 3: the control says what the list shows.
    await expect(page.getByLabel('Status')).toHaveValue('waiting');

    // Walk item 4: the id as the list shows it (with its ellipsis), then the customer's e-mail.
    const target = ids[1] as string;
    const shown = (await page.locator(`tr[data-payment="${target}"] a`).first().textContent()) ?? '';
    expect(shown).toContain('…');
    await page.getByLabel('Search').fill(shown);
    await page.getByLabel('Search').press('Enter');
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(page.locator(`tr[data-payment="${target}"]`)).toBeVisible();
    await page.getByLabel('Search').fill(shown.slice(0, 8));
    await page.getByLabel('Search').press('Enter');
    await expect(page.locator(`tr[data-payment="${target}"]`)).toBeVisible();
    await page.getByLabel('Search').fill('ann.search@buyer.example');
    await page.getByLabel('Search').press('Enter');
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(page.locator(`tr[data-payment="${target}"]`)).toBeVisible();

    await page.getByRole('link', { name: 'Clear' }).click();
    await page.getByLabel('Sort').selectOption('amount_desc');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/sort=amount_desc/);
    await expect(page.locator('tbody tr td:nth-child(5)')).toHaveText([/^\$99\.00/, /^\$40\.00/, /^\$12\.00/]);
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      /\/exports\/payments\.csv\?sort=amount_desc$/,
    );
    const csv = await page.request.get(
      `${world.service.url}${(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')) ?? ''}`,
    );
    expect(
      (await csv.text())
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[4]),
    ).toEqual(['"99.00"', '"40.00"', '"12.00"']);

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: `Copy payment id ${target}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(target);
    await expectAccessible(page, 'payments sorted');
    await shot(page, testInfo, 'dash-daily-payments');
  });

  test('overview is the landing page; an owner sells with a payment link (keyboard only), a viewer cannot', async ({
    page,
    world,
    dash,
    context,
  }, testInfo) => {
    const made = await merchantWithReceiver(world);
    receiver = made.receiver;
    const merchantId = made.merchant.merchant_id;
    const paid = await world.service.api('/api/v1/payments', {
      key: made.merchant.secret_key,
      body: { amount: 25.5, currency: 'btc', email: 'o@buyer.example', order_id: 'o-overview' },
    });
    await world.service.api('/api/v1/sandbox/transfers', {
      key: made.merchant.secret_key,
      body: {
        currency: 'BTC',
        address: paid.json.data.blockchain.pay_address,
        amount: String(paid.json.data.blockchain.pay_amount),
      },
    });
    await world.service.api('/api/v1/sandbox/blocks', {
      key: made.merchant.secret_key,
      body: { count: 2, network: 'btc' },
    });

    await page.setViewportSize({ width: 390, height: 844 });
    // Signed in at the dashboard's root: the first merchant's overview is where one lands.
    await page.goto(`${world.service.url}/dashboard/`);
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard\/m\/mer_\w+\/overview$/);
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await page.getByLabel('Merchant').selectOption(merchantId);
    await expect(page).toHaveURL(new RegExp(`/m/${merchantId}/overview$`));
    await expect(page.locator('[data-field="sold-usd"]')).toHaveText('$25.50');
    await expect(page.locator('[data-asset="BTC"] dd')).toHaveText(`${paid.json.data.blockchain.pay_amount} BTC`);
    await expect(page.locator('[data-status-count="finished"]')).toContainText('1');
    await expect(page.locator('[data-field="daily-chart"] rect')).toHaveCount(30);
    await fitsWidth(page, 'overview at 390 px');
    await expectAccessible(page, 'overview at 390 px');
    await shot(page, testInfo, 'dash-daily-overview-390');
    await page.getByLabel('Today').check();
    await expect(page.locator('section[data-period="today"] [data-field="sold-usd"]')).toHaveText('$25.50');

    // Sell, by keyboard only.
    await page.getByRole('link', { name: 'Create a payment link' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Payment links' })).toBeFocused();
    await page.getByLabel('Amount (USD)').focus();
    await page.keyboard.type('19.90');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('kb@buyer.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type('kb-order-1');
    await page.keyboard.press('Tab');
    await page.keyboard.type('A mug, blue');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Create payment link' })).toBeFocused();
    await page.keyboard.press('Enter');
    const link = page.locator('[data-field="hosted-url"] a.mono');
    await expect(link).toHaveAttribute('href', /\/pay\/pay_\w+\?t=/);
    const url = (await link.getAttribute('href')) ?? '';
    await expect(page.getByRole('img', { name: 'QR code of the payment link' })).toBeVisible();
    await fitsWidth(page, 'payment link at 390 px');
    const create = await page.getByRole('button', { name: 'Create payment link' }).boundingBox();
    expect((create?.x ?? 999) + (create?.width ?? 0)).toBeLessThanOrEqual(390);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy the payment link' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect((await page.request.get(url)).status()).toBe(200);
    await expectAccessible(page, 'payment link created');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'payment link in dark mode');
    await shot(page, testInfo, 'dash-daily-sell-dark');

    await page.locator('section[aria-labelledby="link-h"] a[href*="/payments/"]').click();
    await expect(page.getByRole('heading', { name: /^Payment pay_/ })).toBeVisible();
    await expect(page.locator('[data-field="hosted-url"] a.mono')).toHaveAttribute('href', url);
    await expect(page.getByText('A mug, blue')).toBeVisible();
    await page.goto(dash.url(merchantId, 'overview'));
    await expectAccessible(page, 'overview in dark mode');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(dash.url(merchantId, 'sell'));
    await signIn(page, VIEWER);
    await expect(page.getByRole('heading', { name: 'Payment links' })).toBeVisible();
    await expect(page.getByText('Only an owner can create payment links')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create payment link' })).toHaveCount(0);
  });
});
