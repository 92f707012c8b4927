import { SESSION_IDLE_MS } from '../core/users/sessions.js';
import { expect, expectAccessible, signIn, test, VIEWER } from './dashboard-fixtures.js';
import { shot } from './fixtures.js';

test.describe('dashboard access', () => {
  test('sign out ends the session: the page and the back button show the sign-in form, not data', async ({
    page,
    dash,
  }) => {
    await page.goto(dash.url(dash.test.merchant_id, 'payments'));
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
    await page.getByRole('link', { name: 'Balances' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.locator('table')).toHaveCount(0);
  });

  test.describe('refusals', () => {
    test.use({ allowedErrors: /status of (401|403)/ });

    test('a session idle past 30 minutes ends: the next step asks to sign in again, then the page comes back', async ({
      page,
      world,
      dash,
    }, testInfo) => {
      await page.goto(dash.url(dash.test.merchant_id, 'payments'));
      await signIn(page);
      await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
      world.clock.offset = SESSION_IDLE_MS + 60_000;
      // The next call to the service finds the session gone: normally the click's, but on a loaded machine a call
      // of the Payments page still in flight can get there first and take the link away; both must ask to sign in.
      const clicked = await page
        .getByRole('link', { name: 'Balances' })
        .click({ timeout: 5000 })
        .then(
          () => true,
          () => false,
        );
      await expect(page.getByText(/session expired/)).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await shot(page, testInfo, 'dash-expired');
      await signIn(page);
      if (!clicked) await page.getByRole('link', { name: 'Balances' }).click();
      await expect(page.getByRole('heading', { name: 'Balances' })).toBeVisible();
      world.clock.offset = 0;
    });

    test('a change without the CSRF token is refused (403) and writes nothing', async ({ page, dash }) => {
      await page.goto(dash.url(dash.live.merchant_id, 'settings'));
      await signIn(page);
      await expect(page.getByLabel('Shop name')).toBeVisible();
      const name = await page.getByLabel('Shop name').inputValue();
      const status = await page.evaluate(async (id) => {
        const r = await fetch(`/dashboard/api/merchants/${id}/settings`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Forged' }),
        });
        await r.text();
        return r.status;
      }, dash.live.merchant_id);
      expect(status).toBe(403);
      await page.reload();
      await expect(page.getByLabel('Shop name')).toHaveValue(name);
    });

    test('a viewer reads every page but gets no controls, and the service refuses changes (403)', async ({
      page,
      dash,
    }, testInfo) => {
      await page.goto(dash.url(dash.test.merchant_id, 'keys'));
      await signIn(page, VIEWER);
      await expect(page.locator('tr[data-key]').first()).toBeVisible();
      await expect(page.getByText('Test mode · viewer')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Rotate/ })).toHaveCount(0);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await expect(page.getByRole('button', { name: 'Send test event' })).toHaveCount(0);
      await page.getByRole('link', { name: 'Try the checkout' }).click();
      await expect(page.getByText('Only an owner can try the checkout')).toBeVisible();
      await shot(page, testInfo, 'dash-viewer');
      const csrf = await page.evaluate(
        async () => (await (await fetch('/dashboard/api/session')).json()).data.csrf_token,
      );
      const status = await page.evaluate(
        async ([id, token]) =>
          (
            await fetch(`/dashboard/api/merchants/${id}/keys`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-csrf-token': token as string },
              body: JSON.stringify({ kind: 'secret' }),
            })
          ).status,
        [dash.test.merchant_id, csrf],
      );
      expect(status).toBe(403);
    });
  });

  test('keyboard only: sign in, move through the navigation, open a payment, confirm and cancel a dialog', async ({
    page,
    world,
    dash,
  }) => {
    await world.service.api('/api/v1/payments', {
      body: { amount: 7, currency: 'btc', email: 'k@buyer.example', order_id: 'kbd-1' },
    });
    await page.goto(dash.url(dash.test.merchant_id, 'payments'));
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type('owner@shop.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct horse battery');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Payments' })).toBeFocused();
    // The navigation sits before the content: back up to it.
    const balances = page.getByRole('link', { name: 'Balances' });
    for (let i = 0; i < 12 && !(await balances.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Shift+Tab');
    await expect(balances).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Balances' })).toBeFocused();
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Payments' })).toBeFocused();
    const link = page.locator('tr[data-payment]').filter({ hasText: 'kbd-1' }).getByRole('link');
    for (let i = 0; i < 30 && !(await link.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(link).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: /^Payment pay_/ })).toBeFocused();
    await page.getByRole('link', { name: 'API keys' }).focus();
    await page.keyboard.press('Enter');
    const rotate = page.getByRole('button', { name: /^Rotate/ }).first();
    await rotate.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Rotate' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(rotate).toBeFocused();
  });

  test('a 390 px wide screen: everything fits the width and every page still works', async ({
    page,
    dash,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(dash.url(dash.test.merchant_id, 'payments'));
    await signIn(page);
    for (const [name, heading] of [
      ['Payments', 'Payments'],
      ['Balances', 'Balances'],
      ['Webhooks', 'Webhooks'],
      ['API keys', 'API keys'],
      ['Settings', 'Settings'],
      ['Try the checkout', 'Try the checkout'],
    ] as const) {
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} fits 390 px`).toBeLessThanOrEqual(0);
      await shot(page, testInfo, `dash-390-${name.replace(/\s+/g, '-').toLowerCase()}`);
    }
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await expectAccessible(page, 'payments at 390 px');
  });

  test('dark mode follows the system and stays accessible', async ({ page, dash }, testInfo) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(dash.url(dash.test.merchant_id, 'payments'));
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(bg).toBe('rgb(21, 24, 29)');
    await expectAccessible(page, 'payments in dark mode');
    await shot(page, testInfo, 'dash-dark-payments');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    await expectAccessible(page, 'webhooks in dark mode');
    await shot(page, testInfo, 'dash-dark-webhooks');
  });
});
