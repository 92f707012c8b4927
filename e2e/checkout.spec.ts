import { decodeQrPng } from './qr.js';
import { expect, shopEvents, shopOptions, shot, test } from './fixtures.js';

test.describe('drop-in checkout from a merchant page on another origin', () => {
  test('picker -> QR -> simulated sandbox payment -> onSuccess with a finished payment and a verified webhook', async ({
    shop: page,
    world,
  }, testInfo) => {
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: /USDTERC20/ })).toBeVisible();
    await shot(page, testInfo, '1-picker');

    // Search narrows the list; the network is shown on each choice.
    await dialog.getByRole('searchbox', { name: 'Search currencies' }).fill('bitcoin');
    await expect(dialog.getByRole('button', { name: /USDTERC20/ })).toHaveCount(0);
    const btc = dialog.getByRole('button', { name: /\bBTC\b/ });
    await expect(btc).toContainText('btc');
    await btc.click();

    const amount = dialog.locator('[data-field="pay_amount"]');
    await expect(amount).toHaveText('0.00038462');
    await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('BTC');
    await expect(dialog.locator('[data-field="network"]')).toHaveText('btc');
    await expect(dialog.locator('[data-field="countdown"]')).toHaveText(/^(20:00|19:5\d)$/);
    await expect(dialog.locator('[data-field="status"]')).toHaveText('Waiting for your payment');
    const address = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    // The merchant page's hostile CSS does not reach into the shadow root.
    const color = await amount.evaluate((el) => getComputedStyle(el).color);
    expect(color).not.toBe('rgb(255, 105, 180)');

    // The QR on screen decodes to the exact payment URI the merchant API describes.
    const payments = await world.service.api('/api/v1/payments?limit=1');
    const paymentId: string = payments.json.data.payments[0].payment_id;
    const status = await world.service.api(`/api/v1/payments/${paymentId}`);
    const payAmountText = /"pay_amount":([0-9.]+)/.exec(status.text)?.[1];
    expect(status.json.data.pay_address).toBe(address);
    const uri = `bitcoin:${address}?amount=${payAmountText}`;
    const qr = dialog.locator('img[data-field="qr"]');
    await expect(qr).toBeVisible();
    expect(decodeQrPng(await qr.screenshot())).toBe(uri);
    await expect(dialog.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute('href', uri);
    await shot(page, testInfo, '2-qr');

    await dialog.getByRole('button', { name: 'Simulate payment' }).click();
    await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    await shot(page, testInfo, '3-success');

    const events = await shopEvents(page);
    const success = events.find((e) => e.type === 'success')?.value as {
      payment_id: string;
      payment_status: string;
      actually_paid: string;
    };
    expect(success).toMatchObject({ payment_id: paymentId, payment_status: 'finished', actually_paid: payAmountText });
    expect(
      events.filter((e) => e.type === 'status').map((e) => (e.value as { payment_status: string }).payment_status),
    ).toEqual(['waiting', 'confirming', 'finished']);
    expect((await world.service.api(`/api/v1/payments/${paymentId}`)).json.data.payment_status).toBe('finished');
    // The webhook is the source of truth: signed, verified by the receiver, saying finished.
    await expect
      .poll(
        () =>
          world.webhooks.some(
            (w) =>
              w.verified && w.body?.payment?.payment_id === paymentId && w.body.payment.payment_status === 'finished',
          ),
        { timeout: 20_000 },
      )
      .toBe(true);

    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toHaveCount(0);
    await expect
      .poll(async () => (await shopEvents(page)).find((e) => e.type === 'result')?.value)
      .toMatchObject({ status: 'finished' });
  });
});
