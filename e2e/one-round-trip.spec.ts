import type { IncomingMessage } from 'node:http';
import type { Page } from '@playwright/test';
import { createMerchant } from '../core/merchants/merchants.js';
import { expect, shopEvents, shopOptions, test, type World } from './fixtures.js';

/** What reaches the service while `run` runs: method and URL of every request, in order of arrival. */
async function served(world: World, run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const log = (req: IncomingMessage) => seen.push(`${req.method} ${req.url}`);
  world.service.server.on('request', log);
  try {
    await run();
  } finally {
    world.service.server.off('request', log);
  }
  return seen;
}

/** A POST /sessions as the popup sends it (text/plain, no header of ours), by hand from the shop's page. */
function handMadeSession(page: Page, serviceUrl: string, body: Record<string, unknown>) {
  return page.evaluate(
    async ([url, b]) => {
      const r = await fetch(`${url}/api/dropin/v1/sessions`, { method: 'POST', body: JSON.stringify(b) });
      return { status: r.status, body: await r.json() };
    },
    [serviceUrl, body] as const,
  );
}

const order = { amount: 5, customer: { email: 'a@b.co' } };

test('a tap on a shop of another origin costs one request: no preflight, the key in its body, never in a URL', async ({
  shop: page,
  world,
}) => {
  const key = world.service.merchant.public_key;
  await shopOptions(page, { cryptoCurrency: 'BTC' });
  const sent: { method: string; url: string; headers: Record<string, string>; body: string | null }[] = [];
  page.on('request', (r) => sent.push({ method: r.method(), url: r.url(), headers: r.headers(), body: r.postData() }));
  const seen = await served(world, async () => {
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(dialog.locator('img[data-field="qr"]')).toBeVisible();
    // The live status starts after the QR: its URL is checked too.
    await expect.poll(() => sent.some((r) => r.url.endsWith('/events'))).toBe(true);
  });
  expect(seen.filter((s) => s.startsWith('OPTIONS'))).toEqual([]);
  expect(seen.filter((s) => s.startsWith('POST'))).toEqual(['POST /api/dropin/v1/sessions']);
  const session = sent.find((r) => r.method === 'POST' && r.url.endsWith('/api/dropin/v1/sessions'));
  expect(session?.headers['content-type']).toMatch(/^text\/plain/);
  expect(session?.headers).not.toHaveProperty('authorization');
  expect(JSON.parse(session?.body ?? '{}')).toMatchObject({ public_key: key, amount: 25, crypto_currency: 'BTC' });
  for (const url of [...seen, ...sent.map((r) => r.url)]) expect(url).not.toContain(key);
});

test.describe('refusals, as before and without a preflight', () => {
  test.use({ allowedErrors: /\[ServiceCheckout\]|status of 40[13]/ });

  test('an sk_ key, a missing key and an unknown key get 401 with the envelope, readable by the page', async ({
    shop: page,
    world,
  }) => {
    const url = world.service.url;
    const seen = await served(world, async () => {
      const secret = await handMadeSession(page, url, { ...order, public_key: world.service.merchant.secret_key });
      expect(secret.status).toBe(401);
      expect(secret.body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      expect(secret.body.message).toMatch(/secret keys \(sk_\) must never reach a browser/i);
      const missing = await handMadeSession(page, url, order);
      expect(missing.status).toBe(401);
      expect(missing.body.message).toMatch(/Missing public key/);
      const unknown = await handMadeSession(page, url, { ...order, public_key: 'dk_test_nobody' });
      expect(unknown.status).toBe(401);
    });
    expect(seen).toEqual(Array(3).fill('POST /api/dropin/v1/sessions'));
    // The drop-in itself never sends a secret key anywhere.
    await shopOptions(page, { publicKey: world.service.merchant.secret_key });
    const none = await served(world, async () => {
      await page.getByRole('button', { name: 'Buy the mug' }).click();
      await expect
        .poll(async () => (await shopEvents(page)).find((e) => e.type === 'error')?.value)
        .toMatchObject({ code: 'invalid_options' });
    });
    expect(none.filter((s) => s.includes('/api/'))).toEqual([]);
  });

  test("a shop outside the merchant's allowed origins gets 403 in the popup, and no session", async ({
    shop: page,
    world,
  }) => {
    const strict = await createMerchant(world.service.service.deps.db, world.service.service.deps.clock, {
      name: 'Strict shop',
      mode: 'test',
      allowedOrigins: ['https://shop.example'],
    });
    await shopOptions(page, { publicKey: strict.public_key, cryptoCurrency: 'BTC' });
    const seen = await served(world, async () => {
      await page.getByRole('button', { name: 'Buy the mug' }).click();
      await expect(page.getByRole('dialog').getByRole('alert')).toContainText('is not allowed to use this drop-in key');
    });
    // (The error screen's chunk follows; no other call to the API, and no preflight.)
    expect(seen.filter((s) => s.includes('/api/') || s.startsWith('OPTIONS'))).toEqual([
      'POST /api/dropin/v1/sessions',
    ]);
    expect((await shopEvents(page)).find((e) => e.type === 'error')?.value).toMatchObject({
      code: 'forbidden_origin',
      status: 403,
    });
    const sessions = await world.service.service.deps.db
      .selectFrom('dropin_sessions')
      .select('id')
      .where('merchant_id', '=', strict.merchant_id)
      .execute();
    expect(sessions).toHaveLength(0);
  });
});

test('a tap before checkout.module.js arrives sends the session request alongside the module, not after it', async ({
  page,
  world,
}) => {
  // The module held back a second on its way, as on a slow network; the tap comes the moment the button works.
  await page.route('**/dropin/v1/checkout.module.js', async (route) => {
    await new Promise((r) => setTimeout(r, 1000));
    await route.continue();
  });
  await page.addInitScript((key) => {
    (window as unknown as { SHOP_OPTIONS: unknown }).SHOP_OPTIONS = {
      publicKey: key,
      locale: 'en',
      cryptoCurrency: 'BTC',
    };
    document.addEventListener('DOMContentLoaded', () => document.getElementById('buy')?.click());
  }, world.service.merchant.public_key);
  const seen = await served(world, async () => {
    await page.goto(world.shopUrl);
    const dialog = page.getByRole('dialog', { name: 'Pay with crypto' });
    await expect(dialog.locator('img[data-field="qr"]')).toBeVisible();
    await expect(dialog.locator('[data-field="pay_currency"]')).toHaveText('BTC');
  });
  const post = seen.indexOf('POST /api/dropin/v1/sessions');
  const module = seen.indexOf('GET /dropin/v1/checkout.module.js');
  expect(post).toBeGreaterThanOrEqual(0);
  expect(module).toBeGreaterThan(post);
  // One session: the module read the loader's answer instead of asking again.
  expect(seen.filter((s) => s.startsWith('POST'))).toHaveLength(1);
  expect((await shopEvents(page)).map((e) => e.type)).toContain('status');
});

test("README's snippet fetches the module once, beside checkout.js; the one script tag alone works too", async ({
  browser,
  world,
}) => {
  const loads: { preload: string | undefined; script: string | undefined }[] = [];
  for (const path of ['/', '/one-tag']) {
    // Each load in a context of its own: a first visit, nothing cached.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript((key) => {
      (window as unknown as { SHOP_OPTIONS: unknown }).SHOP_OPTIONS = { publicKey: key, cryptoCurrency: 'BTC' };
    }, world.service.merchant.public_key);
    const seen = await served(world, async () => {
      await page.goto(`${world.shopUrl}${path}`);
      await page.getByRole('button', { name: 'Buy the mug' }).click();
      await expect(page.getByRole('dialog').locator('img[data-field="qr"]')).toBeVisible();
    });
    // The preload is used, not fetched a second time (a credentials mode that differed from the import's would).
    expect(seen.filter((s) => s === 'GET /dropin/v1/checkout.module.js')).toHaveLength(1);
    expect(seen.filter((s) => s.startsWith('POST'))).toEqual(['POST /api/dropin/v1/sessions']);
    loads.push(
      await page.evaluate(() => ({
        preload: document.querySelector('link[rel=modulepreload]')?.getAttribute('href') ?? undefined,
        script: document.querySelector('script[src]')?.getAttribute('crossorigin') ?? undefined,
      })),
    );
    await context.close();
  }
  expect(loads).toEqual([
    { preload: `${world.service.url}/dropin/v1/checkout.module.js`, script: '' },
    { preload: undefined, script: undefined },
  ]);
});

test('the demo storefront on another origin fetches each file once, from the service, with no preflight', async ({
  browser,
  world,
}) => {
  // A first visit: a context of its own, nothing cached.
  const context = await browser.newContext();
  const page = await context.newPage();
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith('http') && r.resourceType() !== 'eventsource') fetched.push(`${r.method()} ${r.url()}`);
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const reused = new Map<string, boolean>();
  cdp.on('Network.responseReceived', (e) => reused.set(e.response.url, e.response.connectionReused));
  const service = world.service.url;
  await page.goto(`${world.shopUrl}/demo/?service=${encodeURIComponent(service)}`);
  await expect(page.getByText('Test mode: nothing here costs real money.')).toBeVisible();
  // Everything the page announced in its Link header has arrived (and been used, or it would be fetched again).
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Buy the hoodie with USDT' }).click();
  await expect(page.getByRole('dialog').locator('img[data-field="qr"]')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const paths = fetched.map((f) => {
    const [method, url] = f.split(' ') as [string, string];
    return `${method} ${new URL(url).pathname}`;
  });
  expect(paths.filter((p) => p.startsWith('OPTIONS'))).toEqual([]);
  // Each file once: a preload named by a relative path (the page's origin) or in another mode than the script
  // that uses it would be fetched a second time.
  expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
  // The service's files come from the service, not from the page's origin.
  for (const f of ['/demo/config.js', '/dropin/v1/checkout.js', '/dropin/v1/checkout.module.js'])
    expect(fetched).toContain(`GET ${service}${f}`);
  // The tap's request rides a connection the page's scripts already opened: no new handshake.
  expect(reused.get(`${service}/api/dropin/v1/sessions`)).toBe(true);
  await context.close();
});
