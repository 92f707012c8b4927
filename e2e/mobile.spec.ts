import { expect, shopEvents, shot, test } from './fixtures.js';

test('mobile viewport: a bottom sheet that fits the screen, picker to success', async ({ shop: page }, testInfo) => {
  const viewport = page.viewportSize();
  expect(viewport?.width).toBeLessThan(480);
  await page.getByRole('button', { name: 'Buy the mug' }).tap();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /USDTTRC20/ }).tap();
  await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('USDT');
  await expect(dialog.locator('img[data-field="qr"]')).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box).not.toBeNull();
  if (box && viewport) {
    // Full width, anchored to the bottom edge, nothing cut off sideways.
    expect(box.x).toBeCloseTo(0, 0);
    expect(box.width).toBeCloseTo(viewport.width, 0);
    expect(box.y + box.height).toBeCloseTo(viewport.height, 0);
  }
  const address = dialog.locator('[data-field="pay_address"]');
  const a = await address.boundingBox();
  expect((a?.x ?? -1) >= 0 && (a?.x ?? 0) + (a?.width ?? 0) <= (viewport?.width ?? 0)).toBe(true);
  await shot(page, testInfo, 'mobile-qr');
  await dialog.getByRole('button', { name: 'Simulate payment' }).tap();
  await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await shot(page, testInfo, 'mobile-success');
  expect((await shopEvents(page)).some((e) => e.type === 'success')).toBe(true);
});
