import { expect, expectAccessible, OWNER, signIn, test } from './dashboard-fixtures.js';
import { shot } from './fixtures.js';

test.describe('merchant dashboard pages', () => {
  test('sign in, then payments: a new payment and its status changes appear live, without a reload', async ({
    page,
    world,
    dash,
  }, testInfo) => {
    await page.goto(dash.url(dash.test.merchant_id, 'payments'));
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expectAccessible(page, 'sign-in');
    await shot(page, testInfo, 'dash-sign-in');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
    await expect(page.getByText(OWNER)).toBeVisible();

    const created = await world.service.api('/api/v1/payments', {
      body: { amount: 42, currency: 'btc', email: 'live@buyer.example', order_id: 'order-live-1' },
    });
    const id: string = created.json.data.payment.payment_id;
    const row = page.locator(`tr[data-payment="${id}"]`);
    await expect(row).toBeVisible();
    await expect(row).toContainText('order-live-1');
    await expect(row.locator('[data-status]')).toHaveText('waiting');
    await world.service.api('/api/v1/sandbox/transfers', {
      body: {
        currency: 'BTC',
        address: created.json.data.blockchain.pay_address,
        amount: created.json.data.blockchain.pay_amount,
      },
    });
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'btc' } });
    await expect(row.locator('[data-status]')).toHaveText('finished');
    await expectAccessible(page, 'payments');
    await shot(page, testInfo, 'dash-payments');
  });
});
