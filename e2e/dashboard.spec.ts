import { readFileSync } from 'node:fs';
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

    // Search by order id narrows the list; the filter is in the URL, so the back button undoes it.
    await world.service.api('/api/v1/payments', {
      body: { amount: 5, currency: 'ltc', email: 'x@buyer.example', order_id: 'other-1' },
    });
    await page.getByLabel('Search').fill('order-live-1');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/q=order-live-1/);
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await page.getByLabel('Status').selectOption('expired');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByText('No payments match.')).toBeVisible();
    await page.goBack();
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await page.goBack();
    await expect(page.locator(`tr[data-payment="${id}"]`)).toBeVisible();
    await expect(page.locator('tbody tr')).not.toHaveCount(1);
  });

  test('payment: timeline with sequences, deposits with confirmations and marks, webhook attempts, redeliver, refunds seen on chain until the payment is refunded', async ({
    page,
    world,
    dash,
  }, testInfo) => {
    const created = await world.service.api('/api/v1/payments', {
      body: { amount: 20, currency: 'ltc', email: 'p@buyer.example', order_id: 'order-detail' },
    });
    const p = created.json.data;
    const id: string = p.payment.payment_id;
    // Two deposits: one short, one overpaying the rest.
    await world.service.api('/api/v1/sandbox/transfers', {
      body: { currency: 'LTC', address: p.blockchain.pay_address, amount: '0.1' },
    });
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'ltc' } });
    await world.service.api('/api/v1/sandbox/transfers', {
      body: { currency: 'LTC', address: p.blockchain.pay_address, amount: String(p.blockchain.pay_amount) },
    });
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'ltc' } });
    await expect
      .poll(() => world.webhooks.filter((w) => w.json?.payment?.payment_id === id).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(3);

    await page.goto(dash.url(dash.test.merchant_id, 'payments'));
    await signIn(page);
    await page.getByRole('link', { name: new RegExp(id.slice(0, 8)) }).click();
    await expect(page).toHaveURL(new RegExp(`/payments/${id}$`));
    await expect(page.getByRole('heading', { name: `Payment ${id}` })).toBeFocused();
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/finished/);
    await expect(page.getByText('Overpaid by 0.1 LTC', { exact: true })).toBeVisible();
    const steps = page.locator('.timeline li');
    await expect(steps.first()).toContainText('#1');
    await expect(steps.first()).toContainText('waiting');
    expect(await steps.count()).toBeGreaterThanOrEqual(3);
    const deposits = page.locator('tr[data-deposit]');
    await expect(deposits).toHaveCount(2);
    await expect(deposits.first()).toContainText('0.1 LTC');
    await expect(deposits.first()).toContainText('2 of 2');
    // Test mode: the sandbox chain has no explorer, so no link.
    await expect(deposits.first().getByRole('link')).toHaveCount(0);
    const delivery = page.locator('[data-delivery]').first();
    await expect(delivery.locator('[data-field="status-code"]').first()).toHaveText('200');
    await expect(delivery).toContainText(' ms');
    await expectAccessible(page, 'payment');
    await shot(page, testInfo, 'dash-payment');

    const before = world.webhooks.length;
    await delivery.getByRole('button', { name: /^Redeliver/ }).click();
    await expect(page.getByText('Redelivery queued')).toBeVisible();
    await expect.poll(() => world.webhooks.length, { timeout: 20_000 }).toBeGreaterThan(before);

    // Refunds: the excess by default, sent by "the merchant's wallet" (a sandbox transfer), seen and confirmed; a
    // second one cancelled; then the rest, after which the payment is refunded.
    const customer = 'ltc1qqypqxpq9qcrsszg2pvxq6rs0zqg3yyc5dyg36p';
    const form = page.getByRole('form', { name: 'Refund this payment' });
    await form.getByLabel('Customer’s address').fill(customer);
    await form.getByRole('button', { name: 'Create refund' }).click();
    await expect(page.getByText('Refund created: send it from your wallet to the address')).toBeVisible();
    const rows = page.locator('tr[data-refund]');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('0.1 LTC');
    await expect(rows.first().locator('[data-refund-status]')).toHaveText('ready to send');
    await expectAccessible(page, 'payment-refunds');
    await shot(page, testInfo, 'dash-refund-ready');
    await world.service.api('/api/v1/sandbox/transfers', {
      body: { currency: 'LTC', address: customer, amount: '0.1' },
    });
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'ltc' } });
    await page.reload();
    await expect(rows.first().locator('[data-refund-status]')).toHaveText('confirmed');
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/finished/);

    await form.getByLabel(/^Amount in/).fill('0.05');
    await form.getByRole('button', { name: 'Create refund' }).click();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('0.05 LTC');
    await expect(rows.nth(1).locator('[data-refund-status]')).toHaveText('awaiting address');
    await rows.nth(1).getByRole('button', { name: 'Cancel refund' }).click();
    const dialog = page.getByRole('dialog', { name: /^Cancel refund rfd_/ });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel refund' }).click();
    await expect(rows.nth(1).locator('[data-refund-status]')).toHaveText('cancelled');

    await form.getByLabel('Customer’s address').fill(customer);
    await form.getByRole('button', { name: 'Create refund' }).click();
    await expect(rows).toHaveCount(3);
    const rest = String(p.blockchain.pay_amount);
    await expect(rows.nth(2)).toContainText(`${rest} LTC`);
    await world.service.api('/api/v1/sandbox/transfers', {
      body: { currency: 'LTC', address: customer, amount: rest },
    });
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'ltc' } });
    // The payment's own change reloads the page live.
    await expect(page.locator('.headline [data-status]').first()).toHaveText(/refunded/);
    await expect(rows.nth(2).locator('[data-refund-status]')).toHaveText('confirmed');
    expect((await world.service.api(`/api/v1/payments/${id}`)).json.data.payment_status).toBe('refunded');

    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
  });

  test.describe('with refusals the page shows (422) and a download (an aborted navigation)', () => {
    test.use({ allowedErrors: /status of 422|payments\.csv\S* net::ERR_ABORTED/ });

    test('balances per asset with USD values, and a CSV export of a date range', async ({ page, dash }, testInfo) => {
      await page.goto(dash.url(dash.test.merchant_id, 'balances'));
      await signIn(page);
      await expect(page.getByRole('heading', { name: 'Balances' })).toBeVisible();
      const btc = page.locator('tr[data-asset="BTC"]');
      await expect(btc).toBeVisible();
      await expect(btc.locator('td').first()).toHaveText(/^\d+\.\d+ BTC$/);
      await expectAccessible(page, 'balances');
      await shot(page, testInfo, 'dash-balances');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV' }).click();
      const file = await (await download).path();
      const csv = readFileSync(file, 'utf8');
      expect(csv.split('\r\n')[0]).toBe(
        'payment_id,created_at,payment_status,status_detail,price_amount,price_currency,pay_amount,pay_currency,actually_paid,refunded,network,pay_address,extra_id,order_id,customer_email,confirmed_at',
      );
      expect(csv).toContain('"order-live-1"');
    });

    test('webhooks: a test event and its delivery, the log by status; secret rotation shown once; URL under the SSRF rules', async ({
      page,
      dash,
    }, testInfo) => {
      await page.goto(dash.url(dash.test.merchant_id, 'webhooks'));
      await signIn(page);
      await expect(page.locator('[data-field="endpoint-state"]')).toHaveText('enabled');
      await page.getByRole('button', { name: 'Send test event' }).click();
      const test = page.locator('.test-delivery');
      await expect(test.locator('[data-status]').first()).toHaveText('succeeded', { timeout: 20_000 });
      await expect(test.locator('[data-field="status-code"]')).toHaveText('200');
      await page.getByRole('link', { name: 'failed' }).click();
      await expect(page).toHaveURL(/status=failed/);
      await expect(page.getByText('No webhook deliveries.')).toBeVisible();
      await page.getByRole('link', { name: 'succeeded' }).click();
      await expect(page.locator('section[aria-labelledby="log-h"] [data-delivery]').first()).toBeVisible();
      await expectAccessible(page, 'webhooks');
      await shot(page, testInfo, 'dash-webhooks');

      // The live merchant: https to public addresses only; its secret rotated and shown once.
      await page.getByLabel('Merchant').selectOption(dash.live.merchant_id);
      await expect(page).toHaveURL(new RegExp(`/m/${dash.live.merchant_id}/webhooks`));
      // The live merchant's endpoint on screen (it has none yet), not the test merchant's still shown while it loads.
      await expect(page.locator('[data-field="endpoint-state"]')).toHaveText('no URL set');
      await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hook');
      await page.getByRole('button', { name: 'Save URL' }).click();
      await expect(page.locator('#url-err')).toContainText('https');
      await page.getByLabel('Webhook URL').fill('https://10.0.0.5/hook');
      await page.getByRole('button', { name: 'Save URL' }).click();
      await expect(page.locator('#url-err')).toContainText('not a public address');
      await page.getByLabel('Webhook URL').fill('https://93.184.216.34/hook');
      await page.getByRole('button', { name: 'Save URL' }).click();
      await expect(page.getByText('Webhook URL saved')).toBeVisible();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const secret = (await page.locator('[data-secret]').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await shot(page, testInfo, 'dash-webhook-secret');
      await page.getByRole('button', { name: 'Done, I saved it' }).click();
      expect(await page.content()).not.toContain(secret);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
      expect(await page.content()).not.toContain(secret);
    });

    test('API keys: create (shown once), last-used time, rotate and deactivate after confirming', async ({
      page,
      world,
      dash,
    }, testInfo) => {
      await page.goto(dash.url(dash.test.merchant_id, 'keys'));
      await signIn(page);
      // The worker's two keys at least: other specs of this worker may have made more (a rotation in its grace).
      await expect(page.locator('tr[data-key]').nth(1)).toBeVisible();
      await page.getByLabel('Kind').selectOption('secret');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.locator('[data-secret]').textContent()) ?? '';
      expect(key).toMatch(/^sk_test_/);
      await shot(page, testInfo, 'dash-key-once');
      expect((await world.service.api('/api/v1/balances', { key })).status).toBe(200);
      await page.getByRole('button', { name: 'Done, I saved it' }).click();
      expect(await page.content()).not.toContain(key);
      const row = page.locator('tr[data-key]').filter({ hasText: key.slice(0, 12) });
      await expect(async () => {
        await page.reload();
        await expect(row.locator('[data-field="last-used"]')).not.toHaveText('never', { timeout: 1000 });
      }).toPass({ timeout: 15_000 });
      await expectAccessible(page, 'keys');
      await shot(page, testInfo, 'dash-keys');

      await row.getByRole('button', { name: /^Rotate/ }).click();
      // No grace period: the old key stops at once (the 24 h default is in dashboard-accounts.spec.ts).
      await page.getByRole('dialog').getByLabel('Old key keeps working for').selectOption('0');
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
      const rotated = (await page.locator('[data-secret]').textContent()) ?? '';
      expect(rotated).toMatch(/^sk_test_/);
      expect((await world.service.api('/api/v1/balances', { key })).status).toBe(401);
      expect((await world.service.api('/api/v1/balances', { key: rotated })).status).toBe(200);
      await page.getByRole('button', { name: 'Done, I saved it' }).click();
      const newRow = page.locator('tr[data-key]').filter({ hasText: rotated.slice(0, 12) });
      await newRow.getByRole('button', { name: /^Deactivate/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
      await expect(newRow).toContainText('deactivated');
      expect((await world.service.api('/api/v1/balances', { key: rotated })).status).toBe(401);
      // The worker's own key still works.
      expect((await world.service.api('/api/v1/balances')).status).toBe(200);
    });

    test('settings: shop name, allowed origins, xpub with its first three addresses (xprv refused), live networks', async ({
      page,
      dash,
    }, testInfo) => {
      await page.goto(dash.url(dash.live.merchant_id, 'settings'));
      await signIn(page);
      await page.getByLabel('Shop name').fill('Corner shop');
      await page.getByLabel(/Allowed origins/).fill('https://shop.example\nnot an origin');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.locator('#origins-err')).toContainText('line 1');
      await page.getByLabel(/Allowed origins/).fill('https://shop.example');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByText('Settings saved')).toBeVisible();
      await expect(page.getByLabel('Merchant').locator('option:checked')).toHaveText('Corner shop (live)');

      // anvil's default mnemonic, account m/44'/60'/0' (core/chains/evm/hd.ts).
      const xprv =
        'xprv9yeny6n2dNUokQFykGoZU6BDLeKbEBUoBeCFe2VF6MXdrHrprMYRc4tddncDRxrJCy7GtPDk68zRcgWtGFveqdCV5NyhZwVgMoZVbTm78vx';
      await page.getByLabel('Extended public key (xpub)').fill(xprv);
      await page.getByRole('button', { name: 'Show addresses' }).click();
      await expect(page.locator('#xpub-err')).toContainText('PRIVATE key');
      expect(await page.locator('#xpub-err').textContent()).not.toContain(xprv);
      const xpub =
        'xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP';
      await page.getByLabel('Extended public key (xpub)').fill(xpub);
      await page.getByRole('button', { name: 'Show addresses' }).click();
      const preview = page.getByRole('region', { name: 'Addresses to compare' });
      await expect(preview.locator('li')).toHaveCount(3);
      await expect(preview.locator('li').first()).toContainText('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
      await shot(page, testInfo, 'dash-xpub-preview');
      await preview.getByRole('button', { name: 'They match: save the key' }).click();
      await expect(page.getByText('Extended public key saved')).toBeVisible();
      await expect(page.getByText(xpub)).toBeVisible();
      await expect(page.getByText('No live network is configured (CHAINS_CONFIG).')).toBeVisible();
      await expectAccessible(page, 'settings');
      await shot(page, testInfo, 'dash-settings');
    });

    test('settings: Monero address and view key (the spend key refused unechoed), subaddress 1 shown, the key never again', async ({
      page,
      dash,
    }) => {
      // A wallet made for this test (core/chains/monero/monero.ts; its subaddresses are proven against wallet-rpc).
      const address = '49TQZs2QX4eVacekkqY8xyAuEP9k115G2YvGVe6SYf9LTSQFvLUMMhPCJSokBDWZmhZRomb4hz3wVVRUZaz5y5ndAc4BfrB';
      const viewKey = '0d446d1b32c4664cc8581c350ac1412ca8c61c33bc268e554471e2c771419902';
      const spendKey = '0e2486c108fc42e8f6cc7b9048313d622f53d1985a8178c1460ac78f80966d01';
      const first = '8BaGnGie49mHVgphdzPD6RfiQ2YiXUkixGme6RQFsY365U5EgUEuArTLmGRzTAu2WLTycU25AZAqjKGEqmSTUfwjQVNRY5G';
      await page.goto(dash.url(dash.live.merchant_id, 'settings'));
      await signIn(page);
      await expect(page.getByText('No Monero address registered')).toBeVisible();
      await page.getByLabel('Primary address').fill(address);
      await page.getByLabel('Private view key').fill(spendKey);
      await page.getByRole('button', { name: 'Save Monero keys' }).click();
      await expect(page.locator('#xmr-key-err')).toContainText('SPEND key');
      expect(await page.locator('#xmr-key-err').textContent()).not.toContain(spendKey);
      await page.getByLabel('Private view key').fill(viewKey);
      await page.getByRole('button', { name: 'Save Monero keys' }).click();
      await expect(page.getByText('Monero address and view key saved')).toBeVisible();
      await expect(page.getByText(first).first()).toBeVisible();
      await expect(page.getByText(address)).toBeVisible();
      expect(await page.content()).not.toContain(viewKey);
      await expectAccessible(page, 'settings');
    });
  });

  test('try the checkout: the merchant’s own drop-in in test mode; a live merchant points to the test one', async ({
    page,
    dash,
  }, testInfo) => {
    await page.goto(dash.url(dash.live.merchant_id, 'try'));
    await signIn(page);
    await expect(page.getByText(/This merchant is live/)).toBeVisible();
    await page.getByRole('link', { name: /\(test\)$/ }).click();
    await expect(page).toHaveURL(new RegExp(`/m/${dash.test.merchant_id}/try`));
    await expectAccessible(page, 'try the checkout');
    await page.getByLabel('Amount (USD)').fill('12.5');
    await page.getByLabel('Currency').selectOption('BTC');
    await page.getByRole('button', { name: 'Open the checkout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('BTC');
    await shot(page, testInfo, 'dash-try');
    await dialog.getByRole('button', { name: 'Simulate payment' }).click();
    await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText(/Payment pay_\w+ finished\./)).toBeVisible();
    await page.getByRole('link', { name: 'See the payment' }).click();
    await expect(page.getByText('dashboard-try')).toBeVisible();
  });
});
