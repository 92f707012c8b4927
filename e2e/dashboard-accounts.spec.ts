import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './dashboard-fixtures.js';
import { shot } from './fixtures.js';

/*
 * Accounts, API keys and the audit log in Chromium (issue 23, items 6-8): inviting by a one-time link, rotating a
 * key with a grace period from the keyboard, the audit page with its filter and CSV; axe-core on each page and
 * dialog; at 390 px the primary actions fit without horizontal scrolling.
 */

/** The page itself never scrolls sideways, and `control` lies within the viewport's width. */
async function fitsPhone(page: Page, control: ReturnType<Page['locator']>) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
}

test.describe('dashboard accounts, keys and audit', () => {
  test('an owner invites by a one-time link; the invitee sets a password with it and signs in as a viewer', async ({
    page,
    browser,
    dash,
  }, testInfo) => {
    const email = `inv-${Date.now()}@shop.example`;
    await page.goto(dash.url(dash.test.merchant_id, 'users'));
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
    await expectAccessible(page, 'Users page');
    const invite = page.getByRole('form', { name: 'Invite a user' });
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Invite' }).click();
    const link = await page.locator('[data-secret]').textContent();
    expect(link).toMatch(/\/dashboard\/set-password#token=pw_/);
    await expect(page.locator(`tr[data-user="${email}"]`)).toContainText('invited, no password yet');
    await expectAccessible(page, 'Users page with the invitation link');
    await shot(page, testInfo, 'dash-users-invite');
    await page.getByRole('button', { name: 'Done, I saved it' }).click();
    await expect(page.locator('[data-secret]')).toHaveCount(0);

    const other = await browser.newContext();
    const p2 = await other.newPage();
    await p2.goto(link ?? '');
    await p2.getByLabel('New password').fill('invited long password');
    await p2.getByLabel('Repeat password').fill('invited long password');
    await p2.getByRole('button', { name: 'Set password' }).click();
    await expect(p2.getByText('Password set.')).toBeVisible();
    await p2.getByRole('button', { name: 'Go to sign in' }).click();
    await signIn(p2, email, 'invited long password');
    await p2.getByRole('link', { name: 'Users' }).click();
    await expect(p2.locator(`tr[data-user="${email}"]`)).toContainText('(you)');
    await expect(p2.getByRole('button', { name: 'Invite' })).toHaveCount(0);
    // The link worked once.
    await p2.goto(link ?? '');
    await p2.getByLabel('New password').fill('another long password');
    await p2.getByLabel('Repeat password').fill('another long password');
    await p2.getByRole('button', { name: 'Set password' }).click();
    await expect(p2.getByText(/not valid/)).toBeVisible();
    await other.close();
  });

  // Chromium reports a download navigation as an aborted request.
  test.use({ allowedErrors: /audit\.csv\S* net::ERR_ABORTED/ });

  test('keyboard only: a labelled key is rotated with a 24 h grace, shown with its end; the audit log lists it and exports CSV', async ({
    page,
    dash,
  }, testInfo) => {
    await page.goto(dash.url(dash.test.merchant_id, 'keys'));
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
    const label = `server ${Date.now()}`;
    await page.getByLabel('Label (optional)').focus();
    await page.keyboard.type(label);
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-secret]')).toBeVisible();
    await page.getByRole('button', { name: 'Done, I saved it' }).focus();
    await page.keyboard.press('Enter');
    const row = page.locator('tr[data-key]', { hasText: label });
    await row.getByRole('button', { name: /^Rotate/ }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Old key keeps working for')).toHaveValue('24');
    await expectAccessible(page, 'rotate dialog', 'dialog[open]');
    // Focus starts on "Rotate"; the grace choice is one Shift+Tab away and keeps its default of 24 hours.
    await expect(dialog.getByRole('button', { name: 'Rotate' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByLabel('Old key keeps working for')).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-secret]')).toBeVisible();
    await expect(
      page.locator('tr[data-key]', { hasText: label }).filter({ hasText: 'rotated: works until' }),
    ).toHaveCount(1);
    await expect(page.locator('tr[data-key]', { hasText: label })).toHaveCount(2);
    await expectAccessible(page, 'Keys page after rotation');
    await shot(page, testInfo, 'dash-keys-grace');

    await page.getByRole('link', { name: 'Audit log' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
    await page.getByLabel('Action').selectOption('key');
    await page.getByRole('button', { name: 'Filter' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('tr[data-audit="key.rotate"]').first()).toBeVisible();
    await expect(page.locator('tr[data-audit^="sign_in"]')).toHaveCount(0);
    await expect(page.locator('tr[data-audit="key.create"]').first()).toContainText(label);
    await expectAccessible(page, 'Audit log page');
    await shot(page, testInfo, 'dash-audit');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download these entries as CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    expect(csv.split('\r\n')[0]).toBe('at,actor,action,target,details,client_address');
    expect(csv).toContain('"key.rotate"');
    expect(csv).not.toContain('"sign_in"');
  });

  test('at 390 px the new pages keep their primary actions on screen without sideways scrolling', async ({
    page,
    dash,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(dash.url(dash.test.merchant_id, 'users'));
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
    await fitsPhone(page, page.getByRole('button', { name: 'Invite' }));
    await fitsPhone(page, page.getByRole('button', { name: 'Change password' }));
    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
    await fitsPhone(page, page.getByRole('button', { name: 'Filter' }));
    await fitsPhone(page, page.getByRole('button', { name: 'Download these entries as CSV' }));
  });

  test('dark mode: the Users and Audit log pages stay accessible', async ({ page, dash }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(dash.url(dash.test.merchant_id, 'users'));
    await signIn(page);
    await expect(page.locator('tr[data-user]').first()).toBeVisible();
    await expectAccessible(page, 'Users page, dark');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect(page.locator('tr[data-audit]').first()).toBeVisible();
    await expectAccessible(page, 'Audit log page, dark');
  });
});
