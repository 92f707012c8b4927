import { expect, shot, test } from './fixtures.js';

test('a newcomer buys on the demo storefront with "Simulate payment"', async ({ page, world }, testInfo) => {
  await page.goto(`${world.service.url}/demo/`);
  await expect(page.getByText('Test mode: nothing here costs real money.')).toBeVisible();
  await shot(page, testInfo, 'demo-store');
  await page.getByRole('button', { name: 'Buy the T-shirt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
  await dialog
    .getByRole('button', { name: /\bETH\b/ })
    .first()
    .click();
  await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('ETH');
  await dialog.getByRole('button', { name: 'Simulate payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('listitem')).toContainText(/T-shirt: paid [0-9.]+ ETH \(payment pay_/);
  await shot(page, testInfo, 'demo-paid');
});

test('the demo storefront opened from another origin finds the service with ?service=', async ({ page, world }) => {
  await page.goto(`${world.shopUrl}/demo/?service=${encodeURIComponent(world.service.url)}`);
  await page.getByRole('button', { name: 'Buy the hoodie with USDT' }).click();
  await expect(page.getByRole('dialog').locator('[data-field="pay_currency"]')).toHaveText('USDT');
});

test.describe('script injection through ?service=', () => {
  test('the demo loads scripts only from an http(s) origin: data: and javascript: run nothing', async ({
    page,
    world,
  }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    for (const service of ['data:text/javascript,alert(document.domain)//', 'javascript:alert(document.domain)//']) {
      await page.goto(`${world.service.url}/demo/?service=${encodeURIComponent(service)}`);
      await expect(page.getByText('?service= must be the http(s) origin of the payment service')).toBeVisible();
    }
    expect(dialogs).toEqual([]);
  });

  test.describe('behind the check, the page policy', () => {
    test.use({ allowedErrors: /Content Security Policy|evil\.example|ERR_BLOCKED_BY_CSP/ });
    test("blocks inline, data: and other origins' scripts on the service's own pages", async ({ page, world }) => {
      await page.goto(`${world.service.url}/demo/`);
      const ran = await page.evaluate(async () => {
        const w = window as unknown as { pwned?: number };
        const add = (src: string) =>
          new Promise<void>((resolve) => {
            const s = document.createElement('script');
            s.src = src;
            s.onload = s.onerror = () => resolve();
            document.head.appendChild(s);
          });
        await add('data:text/javascript,window.pwned=1');
        await add('https://evil.example/x.js');
        const inline = document.createElement('script');
        inline.textContent = 'window.pwned=2';
        document.head.appendChild(inline);
        return w.pwned ?? 0;
      });
      expect(ran).toBe(0);
    });
  });
});
