import { createMerchant } from '../core/merchants/merchants.js';
import { expect, shopEvents, shopOptions, shot, test } from './fixtures.js';
import { decodeQrPng } from './qr.js';

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

  test('assets whose minimum the price misses are shown disabled with their minimum', async ({ shop: page }) => {
    await shopOptions(page, { amount: 2 });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const btc = page.getByRole('dialog').getByRole('button', { name: /\bBTC\b/ });
    await expect(btc).toBeDisabled();
    // The minimum is shown in the price's currency, formatted for the customer (prices in any currency, issue 31).
    await expect(btc).toContainText(/Minimum \$[0-9.,]+/);
  });

  test('merchant and customer text is shown as text, never run as HTML', async ({ shop: page, world }) => {
    const evil = '<img src=x onerror="window.pwned=1">Shop';
    const m = await createMerchant(world.service.service.deps.db, world.service.service.deps.clock, {
      name: evil,
      mode: 'test',
    });
    await shopOptions(page, {
      publicKey: m.public_key,
      cryptoCurrency: 'BTC',
      reference: '<script>window.pwned=2</script>',
      customer: { email: 'x@example.com', name: '<b>Ann</b>' },
    });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(evil, { exact: false })).toBeVisible();
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await dialog.locator('img:not([data-field])').count()).toBe(0);
  });

  test('the ES module build opens the same checkout for bundler users (apiBase given)', async ({
    shop: page,
    world,
  }) => {
    await page.evaluate(
      `import(${JSON.stringify(`${world.service.url}/dropin/v1/checkout.mjs`)}).then((m) => { window.esm = m.open({ publicKey: ${JSON.stringify(world.service.merchant.public_key)}, apiBase: ${JSON.stringify(world.service.url)}, amount: 25, cryptoCurrency: 'ETH', customer: { email: 'esm@example.com' } }); })`,
    );
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('ETH');
    expect(await page.evaluate('typeof window.esm.close')).toBe('function');
  });

  test('Escape closes the popup and focus returns to the Buy button', async ({ shop: page }) => {
    const buy = page.getByRole('button', { name: 'Buy the mug' });
    await buy.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('searchbox')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(buy).toBeFocused();
  });

  test('a click on the backdrop closes the popup', async ({ shop: page }) => {
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    await expect(page.getByRole('dialog').getByRole('searchbox')).toBeVisible();
    await page.mouse.click(10, 10);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('a shop whose CSP allows scripts by nonce only runs the chunks too (simulate, live status, closing screens)', async ({
    page,
    world,
  }) => {
    await page.addInitScript((key) => {
      (window as unknown as { SHOP_OPTIONS: unknown }).SHOP_OPTIONS = { publicKey: key, locale: 'en' };
    }, world.service.merchant.public_key);
    await page.goto(`${world.shopUrl}/csp`);
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
    // A chunk refused by the CSP would leave "Loading…" or a stuck status and a console error (which fails the test).
    await dialog.getByRole('button', { name: /\bLTC\b/ }).click();
    await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('LTC');
    await dialog.getByRole('button', { name: 'Simulate payment' }).click();
    await expect(dialog.getByRole('button', { name: 'Done' })).toBeVisible();
    // The module and its chunks came in through the nonce of the one script tag (dynamic imports inherit it).
    const loaded = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname)
        .filter((p) => /\/dropin\/v1\/(checkout\.module\.js|chunks\/)/.test(p)),
    );
    expect(loaded).toContain('/dropin/v1/checkout.module.js');
    expect(loaded.filter((p) => p.includes('/chunks/')).length).toBeGreaterThanOrEqual(3);
  });

  test('keyboard only: open, search, choose, simulate, done', async ({ shop: page }, testInfo) => {
    await page.keyboard.press('Tab');
    const buy = page.getByRole('button', { name: 'Buy the mug' });
    await expect(buy).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    const search = dialog.getByRole('searchbox', { name: 'Search currencies' });
    await expect(search).toBeFocused();
    await page.keyboard.type('ltc');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: /\bLTC\b/ })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('LTC');
    // Focus stays trapped: Tab from the last control wraps to the first (Close), Shift+Tab wraps back.
    const simulate = dialog.getByRole('button', { name: 'Simulate payment' });
    for (let i = 0; i < 12; i++) {
      if (await simulate.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)) break;
      await page.keyboard.press('Tab');
    }
    await expect(simulate).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(simulate).toBeFocused();
    await page.keyboard.press('Enter');
    const done = dialog.getByRole('button', { name: 'Done' });
    await expect(done).toBeFocused();
    await shot(page, testInfo, 'keyboard-success');
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(buy).toBeFocused();
  });

  test('a forced locale and dark mode', async ({ shop: page }, testInfo) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await shopOptions(page, { locale: 'de', cryptoCurrency: 'BTC' });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mit Krypto bezahlen' });
    await expect(dialog.locator('[data-field="status"]')).toHaveText('Warten auf Ihre Zahlung');
    await expect(dialog.getByRole('button', { name: 'Schließen' })).toBeVisible();
    const bg = await dialog.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toBe('rgb(27, 30, 36)');
    await shot(page, testInfo, 'dark-de');
  });
});

test.describe('refusals', () => {
  test.use({ allowedErrors: /\[ServiceCheckout\]|status of 40[13]/ });

  test('a secret sk_ key is refused by the drop-in and by the API', async ({ shop: page, world }) => {
    await shopOptions(page, { publicKey: world.service.merchant.secret_key });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    await expect
      .poll(async () => (await shopEvents(page)).find((e) => e.type === 'error')?.value)
      .toMatchObject({ code: 'invalid_options' });
    const error = (await shopEvents(page)).find((e) => e.type === 'error')?.value as { message: string };
    expect(error.message).toMatch(/secret keys \(sk_\) must never reach a browser/);
    expect((await shopEvents(page)).find((e) => e.type === 'rejected')?.value).toMatchObject({
      code: 'invalid_options',
    });
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Even a hand-written call from the page gets 401 with the same advice.
    const res = await page.evaluate(
      async ([url, key]) => {
        const r = await fetch(`${url}/api/dropin/v1/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ amount: 5, customer: { email: 'a@b.co' } }),
        });
        return { status: r.status, body: await r.json() };
      },
      [world.service.url, world.service.merchant.secret_key],
    );
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/must never reach a browser/);
  });

  test("an origin outside the merchant's allowed origins is refused", async ({ shop: page, world }, testInfo) => {
    const other = await createMerchant(world.service.service.deps.db, world.service.service.deps.clock, {
      name: 'Strict shop',
      mode: 'test',
      allowedOrigins: ['https://shop.example'],
    });
    await shopOptions(page, { publicKey: other.public_key });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Checkout unavailable' })).toBeVisible();
    await expect(dialog.getByRole('alert')).toContainText('is not allowed to use this drop-in key');
    const error = (await shopEvents(page)).find((e) => e.type === 'error')?.value;
    expect(error).toMatchObject({ code: 'forbidden_origin', status: 403 });
    await shot(page, testInfo, 'origin-refused');
    const count = await world.service.service.deps.db
      .selectFrom('dropin_sessions')
      .select('id')
      .where('merchant_id', '=', other.merchant_id)
      .execute();
    expect(count).toHaveLength(0);
  });

  test('invalid options give a clear console error and onError, never an exception in the page', async ({
    shop: page,
  }) => {
    await shopOptions(page, { amount: -3, customer: { email: 'nope' } });
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    await expect
      .poll(async () => (await shopEvents(page)).find((e) => e.type === 'error')?.value)
      .toMatchObject({ code: 'invalid_options' });
    const error = (await shopEvents(page)).find((e) => e.type === 'error')?.value as { message: string };
    expect(error.message).toContain('amount must be a positive number');
    expect(error.message).toContain('customer.email must be an e-mail address');
    expect(
      await page.evaluate(
        () => typeof (window as unknown as { checkoutHandle: { close: unknown } }).checkoutHandle.close,
      ),
    ).toBe('function');
  });
});
