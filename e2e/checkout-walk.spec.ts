import { expect, shopOptions, test } from './fixtures.js';

/* The checkout items of issue 23's walk, each reproduced on the code before its fix. */

test('the success line is green, distinct from the amber of "confirming"', async ({ shop: page }) => {
  await shopOptions(page, { cryptoCurrency: 'LTC' });
  await page.getByRole('button', { name: 'Buy the mug' }).click();
  const dialog = page.getByRole('dialog');
  const status = dialog.locator('[data-field="status"]');
  await expect(status).toHaveAttribute('data-status', 'waiting');
  await dialog.getByRole('button', { name: 'Simulate payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  const colours = await status.evaluate((el) => {
    const host = (el.getRootNode() as ShadowRoot).host;
    const vars = getComputedStyle(host);
    return {
      line: getComputedStyle(el).color,
      ok: vars.getPropertyValue('--ok'),
      warn: vars.getPropertyValue('--warn'),
    };
  });
  const rgb = (hex: string) => {
    const n = Number.parseInt(hex.trim().slice(1), 16);
    return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
  };
  expect(colours.line).toBe(rgb(colours.ok));
  expect(colours.line).not.toBe(rgb(colours.warn));
});

test('the hosted page draws no focus ring around the whole card on load; a control still gets its ring', async ({
  page,
  world,
}) => {
  const created = await world.service.api('/api/v1/payment-links', {
    body: { amount: 19.99, currency: 'btc', email: 'cy@example.com', order_id: 'walk-ring' },
  });
  await page.goto(created.json.data.payment.hosted_payment_url);
  const card = page.getByRole('dialog', { name: 'Pay with crypto' });
  await expect(card.locator('img[data-field="qr"]')).toBeVisible();
  const ring = await card.evaluate((el) => {
    const focused = (el.getRootNode() as ShadowRoot).activeElement === el;
    return { focused, outline: getComputedStyle(el).outlineStyle };
  });
  // The card takes the focus (a screen reader starts there), but shows no ring for it.
  expect(ring).toEqual({ focused: true, outline: 'none' });
  await page.keyboard.press('Tab');
  const control = await card.evaluate((el) => {
    const active = (el.getRootNode() as ShadowRoot).activeElement as HTMLElement;
    return getComputedStyle(active).outlineStyle;
  });
  expect(control).toBe('solid');
});

test('the hosted page shows the order’s description, as text', async ({ page, world }) => {
  const description = 'Blue mug, large <b>x2</b>';
  const created = await world.service.api('/api/v1/payment-links', {
    body: {
      amount: 12,
      currency: 'btc',
      email: 'cy@example.com',
      order_id: 'walk-desc',
      order_description: description,
    },
  });
  expect(created.status, created.text).toBe(201);
  await page.goto(created.json.data.payment.hosted_payment_url);
  const card = page.getByRole('dialog', { name: 'Pay with crypto' });
  await expect(card.locator('img[data-field="qr"]')).toBeVisible();
  await expect(card.locator('[data-field="order_description"]')).toHaveText(description);
  await expect(card.locator('b')).toHaveCount(0);
});

test('the popup names an asset as a wallet does ("USDT" on "Ethereum"), the code only for assistive tech', async ({
  shop: page,
}) => {
  await page.getByRole('button', { name: 'Buy the mug' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
  // The hook of README: each asset button's accessible name still carries its code.
  const usdt = dialog.getByRole('button', { name: /USDTERC20/ });
  await expect(usdt.locator('.code')).toHaveText('USDT');
  await expect(usdt.locator('.net')).toHaveText('Ethereum');
  await expect(dialog.getByRole('button', { name: /USDTTRC20/ }).locator('.net')).toHaveText('Tron');
  // Searching by the network's name finds its assets.
  await dialog.getByRole('searchbox', { name: 'Search currencies' }).fill('tron');
  await expect(dialog.getByRole('button', { name: /USDTTRC20/ })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /USDTERC20/ })).toHaveCount(0);
  await dialog.getByRole('searchbox', { name: 'Search currencies' }).fill('');
  await usdt.click();
  await expect(dialog.locator('[data-field="pay_amount"]')).toHaveText('25');
  await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('USDT');
  await expect(dialog.locator('[data-field="network"]')).toHaveText('Ethereum');
  expect(await dialog.innerText()).not.toMatch(/USDTERC20|\beth\b/);
});

test('the hosted page names the asset and its network as people do', async ({ page, world }) => {
  const created = await world.service.api('/api/v1/payment-links', {
    body: { amount: 30, currency: 'usdcbase', email: 'cy@example.com', order_id: 'walk-label' },
  });
  expect(created.status, created.text).toBe(201);
  await page.goto(created.json.data.payment.hosted_payment_url);
  const card = page.getByRole('dialog', { name: 'Pay with crypto' });
  await expect(card.locator('img[data-field="qr"]')).toBeVisible();
  await expect(card.locator('[data-field="pay_currency"]')).toHaveText('USDC');
  await expect(card.locator('[data-field="network"]')).toHaveText('Base');
  expect(await card.innerText()).not.toContain('USDCBASE');
});
