import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { type Browser, chromium, type Response } from '@playwright/test';
import { build } from 'vite';
import { chromiumLaunchOptions } from '../e2e/chromium.js';
import { startShop } from '../e2e/shop-server.js';
import { gzipBest } from '../scripts/gzip-best.js';
import { startTestService } from '../server/testing/harness.js';
import { runIfMain } from './standalone.js';
import { median } from './stats.js';

const OUT = 'public/dropin/v1';
const BROWSERS = ['chrome111', 'safari16.4', 'firefox115', 'edge111'];

/** Wire bytes of one checkout flow (bodies as sent, gzip-encoded where the service encodes; no headers), split at the QR. */
export interface FlowSizes {
  /** Everything requested before the QR was on screen, API answers included. */
  toQr: Record<string, number>;
  toQrTotal: number;
  /** The drop-in's own files (JS, its CSS inside) among them: what the 15 KB budget covers. */
  codeToQr: number;
  withinBudget: boolean;
  /** Requested once the QR was on screen (live status, the closing screens): outside the budget, shown anyway. */
  afterQr: Record<string, number>;
  afterQrTotal: number;
}

export interface DropinBench {
  sizes: { budget: number; preset: FlowSizes; picker: FlowSizes };
  /**
   * The built files gzipped alone, as served (scripts/gzip-best.ts, the build's own gzip). checkout.js is split into the framework (Preact +
   * @preact/signals, bundled alone the same way), our stylesheet and our own code (the rest); parts gzipped alone
   * add up to a little more than the whole, as gzip shares its dictionary across a file.
   */
  script: {
    /** The script tag's loader. */
    loader: number;
    /** checkout.module.js, split into the framework, the stylesheet and our own code (the rest). */
    checkout: number;
    framework: number;
    stylesheet: number;
    widgetCode: number;
    chunks: Record<string, number>;
  };
  /** Median ms over `runs`, the script already loaded: open() to the QR image decoded and on screen. */
  openToQrMs: number;
  /** Median ms of the same work as one bare API call from the page: POST /sessions with the asset preset. */
  apiRoundTripMs: number;
  runs: number;
}

/** Runs in the page: n times open() -> QR decoded on screen, then the same work as one bare fetch. */
const IN_PAGE_TIMINGS = `async function (k, n) {
  const qrShown = () => new Promise((resolve) => {
    const check = () => {
      const img = document.querySelector('service-checkout')?.shadowRoot?.querySelector('img[data-field="qr"]');
      if (img && img.complete && img.naturalWidth > 0) resolve(); else requestAnimationFrame(check);
    };
    check();
  });
  const open = [], api = [];
  const base = new URL(document.querySelector('script[src*="checkout.js"]').src).origin;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const h = ServiceCheckout.open({ publicKey: k, amount: 25, cryptoCurrency: 'BTC', locale: 'en', customer: { email: 'bench@example.com' } });
    await qrShown();
    open.push(performance.now() - t0);
    h.close();
    const t1 = performance.now();
    const r = await fetch(base + '/api/dropin/v1/sessions', { method: 'POST',
      body: JSON.stringify({ public_key: k, amount: 25, crypto_currency: 'BTC', customer: { email: 'bench@example.com' } }) });
    await r.json();
    api.push(performance.now() - t1);
  }
  return { open, api };
}`;

const gz = async (b: Buffer | string) => (await gzipBest(Buffer.from(b))).length;
const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

/** Gzipped size of the framework alone, bundled and minified like checkout.js. */
async function frameworkBytes(): Promise<number> {
  const r = await build({
    configFile: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      target: BROWSERS,
      minify: true,
      lib: { entry: 'bench/dropin-framework.ts', formats: ['iife'], name: 'F' },
    },
  });
  const out = (Array.isArray(r) ? r[0] : r) as { output: { type: string; code?: string }[] };
  return await gz(out.output.find((o) => o.type === 'chunk')?.code ?? '');
}

/** The stylesheet as it sits in checkout.js (minified text inside the bundle). */
async function stylesheetBytes(js: string): Promise<number> {
  const start = js.indexOf(':host{');
  const end = js.indexOf('`', start);
  return start < 0 || end < 0 ? 0 : await gz(js.slice(start, end));
}

/** `POST /api/dropin/v1/sessions/{token}/payment`, `GET /dropin/v1/chunks/picker.js`. */
const partName = (url: string, method: string) =>
  `${method} ${new URL(url).pathname.replace(/^(\/api\/dropin\/v1\/sessions\/)[^/]+/, '$1{token}')}`;

/**
 * One checkout run in a fresh browser context (empty cache), as a first-time shopper: every response from the
 * service with its body size on the wire, and whether it was requested before the QR was on screen. The widget
 * marks that moment (`service-checkout:qr`, when the QR image has loaded); resource timing gives each request's
 * start on the same clock.
 */
async function measureFlow(
  browser: Browser,
  serviceUrl: string,
  shopUrl: string,
  key: string,
  preset: boolean,
): Promise<FlowSizes> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const responses: { url: string; name: string; bytes: Promise<number> }[] = [];
    page.on('response', (r: Response) => {
      const method = r.request().method();
      if (method === 'OPTIONS' || !r.url().startsWith(serviceUrl) || r.url().endsWith('/events')) return;
      responses.push({
        url: r.url(),
        name: partName(r.url(), method),
        bytes: r
          .request()
          .sizes()
          .then((s) => s.responseBodySize),
      });
    });
    await page.addInitScript(
      `window.SHOP_OPTIONS = ${JSON.stringify({ publicKey: key, locale: 'en', ...(preset ? { cryptoCurrency: 'BTC' } : {}) })};`,
    );
    await page.goto(shopUrl);
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    if (!preset) {
      const btc = page.getByRole('dialog').getByRole('button', { name: /\bBTC\b/ });
      await btc.waitFor();
      await page.waitForLoadState('networkidle').catch(() => {});
      await btc.click();
    }
    await page.waitForFunction(() => performance.getEntriesByName('service-checkout:qr').length > 0);
    await page.waitForLoadState('networkidle').catch(() => {});
    const started = (await page.evaluate(() => {
      const qr = performance.getEntriesByName('service-checkout:qr')[0]?.startTime ?? 0;
      return performance.getEntriesByType('resource').map((e) => ({ url: e.name, before: e.startTime < qr }));
    })) as { url: string; before: boolean }[];
    const out: FlowSizes = { toQr: {}, toQrTotal: 0, codeToQr: 0, withinBudget: false, afterQr: {}, afterQrTotal: 0 };
    for (const r of responses) {
      // A request the page did not time (the page itself, or none) counts as before the QR: never flatter.
      const before = started.find((s) => s.url === r.url)?.before ?? true;
      const bucket = before ? out.toQr : out.afterQr;
      bucket[r.name] = (bucket[r.name] ?? 0) + (await r.bytes);
    }
    out.toQrTotal = sum(out.toQr);
    out.codeToQr = sum(Object.fromEntries(Object.entries(out.toQr).filter(([k]) => k.startsWith('GET /dropin/v1/'))));
    out.afterQrTotal = sum(out.afterQr);
    out.withinBudget = out.codeToQr <= BUDGET;
    return out;
  } finally {
    await context.close();
  }
}

const BUDGET = 15 * 1024;

/**
 * The drop-in's cost to a shopper, in headless Chromium on loopback: what it downloads to show the QR (budget
 * 15 KB gzipped) with and without the asset picker, and how long open() takes to put the QR on screen (target
 * under 150 ms), next to the bare API round trip that the popup cannot beat.
 */
export async function benchDropin(runs = 20): Promise<DropinBench> {
  // Always from the current source: a stale bundle would measure someone else's bytes.
  execSync('npx vite build', { stdio: 'ignore' });
  const t = await startTestService({ start: true });
  const shop = await startShop(t.url);
  const browser = await chromium.launch(chromiumLaunchOptions);

  try {
    const key = t.merchant.public_key;
    const picker = await measureFlow(browser, t.url, shop.url, key, false);
    const preset = await measureFlow(browser, t.url, shop.url, key, true);

    const page = await browser.newPage();
    await page.goto(shop.url);
    // Passed as source text: tsx's transform would add helpers (__name) that do not exist in the page.
    const timings = (await page.evaluate(`(${IN_PAGE_TIMINGS})(${JSON.stringify(key)}, ${runs})`)) as {
      open: number[];
      api: number[];
    };
    const loader = await gz(readFileSync(`${OUT}/checkout.js`));
    const js = readFileSync(`${OUT}/checkout.module.js`, 'utf8');
    const checkout = await gz(js);
    const framework = await frameworkBytes();
    const stylesheet = await stylesheetBytes(js);
    const chunks: Record<string, number> = {};
    for (const f of readdirSync(`${OUT}/chunks`))
      if (f.endsWith('.js')) chunks[f] = await gz(readFileSync(`${OUT}/chunks/${f}`));
    return {
      sizes: { budget: BUDGET, preset, picker },
      script: { loader, checkout, framework, stylesheet, widgetCode: checkout - framework - stylesheet, chunks },
      openToQrMs: Math.round(median(timings.open) * 10) / 10,
      apiRoundTripMs: Math.round(median(timings.api) * 10) / 10,
      runs,
    };
  } finally {
    await browser.close();
    await shop.close();
    await t.close();
  }
}

// `npx tsx bench/dropin.ts` runs it alone.
runIfMain(import.meta.url, benchDropin);
