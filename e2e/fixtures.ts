import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import type { Clock } from '../core/clock.js';
import { type Received, startReceiver } from '../core/webhooks/testing/receiver.js';
import { rememberDemoKey } from '../dropin-api/demo.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { startShop } from './shop-server.js';

/** The service's clock: real time plus an offset a test may move (expiry), reset after each test. */
export class OffsetClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

export interface World {
  service: TestService;
  clock: OffsetClock;
  shopUrl: string;
  /** What the merchant's webhook endpoint received, each with its signature checked by node:crypto. */
  webhooks: Received[];
}

type WorkerFixtures = { world: World };
type TestFixtures = {
  /** Console errors / failed requests a test expects (negative runs); anything else fails the test. */
  allowedErrors: RegExp | null;
  shop: Page;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  world: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      // The merchant's endpoint; its secret is known once the merchant exists.
      const receiver = await startReceiver('');
      const clock = new OffsetClock();
      // The real service: real HTTP, a fresh SQLite file, watchers, expiry sweep and webhook dispatch running.
      const service = await startTestService({
        start: true,
        clock,
        webhookUrl: receiver.url,
        env: { EXPIRY_SWEEP_MS: '250', LOG_LEVEL: 'silent' },
      });
      receiver.secret = service.merchant.webhook_secret;
      // The demo storefront runs on this worker's merchant, as `npm start` sets it up for the demo merchant.
      await rememberDemoKey(service.service.deps.db, service.merchant.public_key);
      const shop = await startShop(service.url);
      await use({ service, clock, shopUrl: shop.url, webhooks: receiver.received });
      await shop.close();
      await service.close();
      await receiver.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  allowedErrors: [null, { option: true }],
  page: async ({ page, allowedErrors }, use, testInfo) => {
    const problems: string[] = [];
    const allowed = (text: string) => allowedErrors?.test(text) === true;
    page.on('console', (m) => {
      if (m.type() === 'error' && !allowed(m.text())) problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => {
      const failure = r.failure()?.errorText ?? '';
      // Closing the popup ends its live stream: an aborted EventSource is not a failure.
      if (failure.includes('ERR_ABORTED') && r.url().includes('/events')) return;
      // The browser fetches the installable app's icons (manifest) in the background and drops the fetch when the
      // page navigates away: not a failure of the page.
      if (failure.includes('ERR_ABORTED') && r.url().includes('/dashboard/icons/')) return;
      const text = `request failed: ${r.method()} ${r.url()} ${failure}`;
      if (!allowed(text)) problems.push(text);
    });
    await use(page);
    expect(problems, `unexpected browser errors in "${testInfo.title}"`).toEqual([]);
  },
  shop: async ({ page, world }, use) => {
    await page.addInitScript((key) => {
      (window as unknown as { SHOP_OPTIONS: unknown }).SHOP_OPTIONS = { publicKey: key, locale: 'en' };
    }, world.service.merchant.public_key);
    await page.goto(world.shopUrl);
    await use(page);
    world.clock.offset = 0;
  },
});

export { expect };

/** Saves a screenshot of the page (or only the screen) as a test artifact (test-results/, and attached to the report). */
export async function shot(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Sets the options the shop page passes to open() (before clicking Buy). */
export async function shopOptions(page: Page, options: Record<string, unknown>): Promise<void> {
  await page.evaluate((o) => {
    const w = window as unknown as { SHOP_OPTIONS: Record<string, unknown> };
    w.SHOP_OPTIONS = { ...w.SHOP_OPTIONS, ...o };
  }, options);
}

/** The callbacks the shop page received, in order. */
export function shopEvents(page: Page): Promise<{ type: string; value: unknown }[]> {
  return page.evaluate(() => (window as unknown as { shopEvents: { type: string; value: unknown }[] }).shopEvents);
}
