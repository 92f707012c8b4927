import { createMerchant } from '../core/merchants/merchants.js';
import { expect, shopEvents, shopOptions, shot, test } from './fixtures.js';

// The drop-in popup around the payment: minimums, escaping, the ES module build, closing, a nonce-only CSP, the
// keyboard, locale and theme, and refusals. checkout.spec.ts pays end to end.

test.describe('drop-in checkout from a merchant page on another origin', () => {
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
