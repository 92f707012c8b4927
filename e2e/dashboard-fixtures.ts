import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { type CreatedMerchant, createMerchant } from '../core/merchants/merchants.js';
import { addUser } from '../core/users/accounts.js';
import { test as base, expect } from './fixtures.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const OWNER = 'owner@shop.example';
export const VIEWER = 'viewer@shop.example';
export const PASSWORD = 'correct horse battery';

export interface Dash {
  /** The worker's test merchant (world.service.merchant) and a live merchant of the same shop. */
  test: CreatedMerchant;
  live: CreatedMerchant;
  /** `/dashboard/m/{merchant}/{page}` on the worker's service. */
  url(merchantId: string, page: string): string;
}

/**
 * The dashboard's fixtures over the drop-in's world (a real service with timers running, a webhook receiver):
 * an owner of the test and live merchants, and a viewer of the test merchant, each with a password.
 */
export const test = base.extend<object, { dash: Dash }>({
  dash: [
    async ({ world }, use) => {
      const deps = world.service.service.deps;
      const live = await createMerchant(deps.db, deps.clock, { name: 'Test shop (live)', mode: 'live' });
      await addUser(deps, {
        merchantId: world.service.merchant.merchant_id,
        email: OWNER,
        role: 'owner',
        password: PASSWORD,
      });
      await addUser(deps, { merchantId: live.merchant_id, email: OWNER, role: 'owner' });
      await addUser(deps, {
        merchantId: world.service.merchant.merchant_id,
        email: VIEWER,
        role: 'viewer',
        password: PASSWORD,
      });
      await use({
        test: world.service.merchant,
        live,
        url: (merchantId, page) => `${world.service.url}/dashboard/m/${merchantId}/${page}`,
      });
    },
    { scope: 'worker' },
  ],
});

export { expect };

/** Signs in through the form, as a merchant's own browser run would: labels "Email", "Password", button "Sign in". */
export async function signIn(page: Page, email = OWNER, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * axe-core over the page as it is now (or only over the elements `selector` matches, the checkout's host element,
 * say): no serious or critical violation. Injected by evaluation, not a script tag: the service's
 * Content-Security-Policy refuses inline scripts, and this run keeps that policy on.
 */
export async function expectAccessible(page: Page, what: string, selector?: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (include) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context?: unknown,
          ): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const r = await (include ? axe.run({ include: [include] }) : axe.run());
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  }, selector ?? null);
  expect(violations, `accessibility of ${what}`).toEqual([]);
}
