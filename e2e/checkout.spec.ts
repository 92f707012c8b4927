import { expect, shopEvents, shopOptions, shot, test } from './fixtures.js';
import { decodeQrPng } from './qr.js';

// The drop-in checkout paid end to end; checkout-popup.spec.ts has its minimums, escaping, module build, closing,
// CSP, keyboard, locale and refusals.

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
    await expect(btc.locator('.net')).toHaveText('Bitcoin');
    await btc.click();

    const amount = dialog.locator('[data-field="pay_amount"]');
    await expect(amount).toHaveText('0.00038462');
    await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('BTC');
    await expect(dialog.locator('[data-field="network"]')).toHaveText('Bitcoin');
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
              w.verified && w.json?.payment?.payment_id === paymentId && w.json.payment.payment_status === 'finished',
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

  test('preset cryptoCurrency goes straight to the QR, with the destination tag of XRP', async ({
    shop: page,
  }, testInfo) => {
    await shopOptions(page, { cryptoCurrency: 'XRP', amount: 40 });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('XRP');
    await expect(dialog.getByRole('searchbox')).toHaveCount(0);
    const tag = (await dialog.locator('[data-field="extra_id"]').textContent()) ?? '';
    expect(tag).toMatch(/^\d+$/);
    const address = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    const amount = (await dialog.locator('[data-field="pay_amount"]').textContent()) ?? '';
    const decoded = decodeQrPng(await dialog.locator('img[data-field="qr"]').screenshot());
    expect(decoded).toContain(address);
    expect(decoded).toContain(`dt=${tag}`);
    expect(decoded).toContain(`amount=${amount}`);
    // The copy buttons put the exact text on the clipboard and say so.
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    for (const [label, text] of [
      ['Copy tag', tag],
      ['Copy address', address],
      ['Copy amount', amount],
    ] as const) {
      await dialog.getByRole('button', { name: label }).click();
      await expect(dialog.getByRole('button', { name: `${label}: Copied` })).toBeVisible();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(text);
    }
    await expect(dialog.getByRole('button', { name: 'Choose another currency' })).toHaveCount(0);
    await shot(page, testInfo, 'preset-xrp');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    await expect.poll(async () => (await shopEvents(page)).map((e) => e.type)).toContain('close');
    expect((await shopEvents(page)).find((e) => e.type === 'result')?.value).toMatchObject({ status: 'closed' });
  });

  test('partial payment shows the remaining amount, a top-up finishes it', async ({ shop: page, world }, testInfo) => {
    await shopOptions(page, { cryptoCurrency: 'LTC' });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog');
    const amountText = (await dialog.locator('[data-field="pay_amount"]').textContent()) ?? '';
    const address = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    // The customer's wallet sends 60% (exact decimal arithmetic on base units, 8 decimals for LTC).
    const units =
      BigInt(amountText.replace('.', '').replace(/^0+/, '')) *
      10n ** BigInt(8 - (amountText.split('.')[1]?.length ?? 0));
    const part = (units * 6n) / 10n;
    const text = (u: bigint) => `${u / 100_000_000n}.${String(u % 100_000_000n).padStart(8, '0')}`;
    const send = async (amount: string) => {
      expect(
        (await world.service.api('/api/v1/sandbox/transfers', { body: { currency: 'ltc', address, amount } })).status,
      ).toBe(201);
    };
    await send(text(part));
    await expect(dialog.locator('[data-field="status"]')).toHaveText('Payment seen, confirming: 0 of 2');
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 1, network: 'ltc' } });
    await expect(dialog.locator('[data-field="status"]')).toHaveText('Payment seen, confirming: 1 of 2');
    await shot(page, testInfo, 'partial-confirming');
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 1, network: 'ltc' } });
    const remaining = text(units - part).replace(/0+$/, '');
    await expect(dialog.locator('[data-field="status"]')).toHaveText(
      `Partly paid: send the remaining ${remaining} LTC`,
    );
    await expect(dialog.locator('[data-field="remaining_amount"]')).toHaveText(remaining);
    // The QR now asks for what is left, not the whole amount again.
    expect(decodeQrPng(await dialog.locator('img[data-field="qr"]').screenshot())).toBe(
      `litecoin:${address}?amount=${remaining}`,
    );
    await expect(dialog.locator('[data-field="pay_amount"]')).toHaveText(amountText);
    await shot(page, testInfo, 'partial-remaining');
    await send(remaining);
    await expect(dialog.locator('[data-field="status"]')).toHaveText('Payment seen, confirming: 0 of 2');
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'ltc' } });
    await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    const statuses = (await shopEvents(page))
      .filter((e) => e.type === 'status')
      .map((e) => (e.value as { payment_status: string }).payment_status);
    expect(statuses).toEqual(['waiting', 'confirming', 'partially_paid', 'confirming', 'finished']);
  });

  test('expiry shows a clear screen; retry creates a new payment', async ({ shop: page, world }, testInfo) => {
    await shopOptions(page, { cryptoCurrency: 'DOGE' });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog');
    const firstAddress = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    // Time passes on the service (its clock moves past expires_at and the grace): the sweep expires the payment.
    world.clock.offset = 40 * 60 * 1000;
    await expect(dialog.getByRole('heading', { name: 'This quote has expired' })).toBeVisible();
    await shot(page, testInfo, 'expired');
    const expired = (await shopEvents(page)).find((e) => e.type === 'expired')?.value as {
      payment_id: string;
      payment_status: string;
    };
    expect(expired.payment_status).toBe('expired');
    await dialog.getByRole('button', { name: 'Start again' }).click();
    await expect(dialog.locator('[data-field="status"]')).toHaveText('Waiting for your payment');
    const secondAddress = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    expect(secondAddress).not.toBe(firstAddress);
    const old = await world.service.api(`/api/v1/payments/${expired.payment_id}`);
    expect(old.json.data.payment_status).toBe('expired');
    await shot(page, testInfo, 'retried');
  });

  test('without EventSource the popup follows the payment by polling', async ({ shop: page, world }) => {
    await page.addInitScript('delete window.EventSource');
    await page.reload();
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/events')) streams.push(r.url());
    });
    await shopOptions(page, { cryptoCurrency: 'BTC' });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog');
    const address = (await dialog.locator('[data-field="pay_address"]').textContent()) ?? '';
    const amount = (await dialog.locator('[data-field="pay_amount"]').textContent()) ?? '';
    // Paid from "a wallet" (the merchant sandbox route), not through the popup: only polling can tell it.
    await world.service.api('/api/v1/sandbox/transfers', { body: { currency: 'btc', address, amount } });
    await world.service.api('/api/v1/sandbox/blocks', { body: { count: 2, network: 'btc' } });
    await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
    expect(streams).toEqual([]);
  });
});
