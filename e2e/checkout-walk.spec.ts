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
    return { line: getComputedStyle(el).color, ok: vars.getPropertyValue('--ok'), warn: vars.getPropertyValue('--warn') };
  });
  const rgb = (hex: string) => {
    const n = Number.parseInt(hex.trim().slice(1), 16);
    return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
  };
  expect(colours.line).toBe(rgb(colours.ok));
  expect(colours.line).not.toBe(rgb(colours.warn));
});
