import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { startShop } from '../e2e/shop-server.js';
import { startTestService } from '../server/testing/harness.js';

export interface DropinBench {
  /** Gzipped bytes of each thing the page loads until the QR shows (API JSON gzipped as the server would send it). */
  sizes: {
    preset: Record<string, number>;
    picker: Record<string, number>;
    presetTotal: number;
    pickerTotal: number;
    budget: number;
  };
  /** checkout.js split up, gzipped: Preact + @preact/signals, our stylesheet, and our own code (the rest). */
  script: { total: number; framework: number; stylesheet: number; widgetCode: number };
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
    const r = await fetch(base + '/api/dropin/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + k, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 25, crypto_currency: 'BTC', customer: { email: 'bench@example.com' } }) });
    await r.json();
    api.push(performance.now() - t1);
  }
  return { open, api };
}`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const gz = (b: Buffer | string) => gzipSync(b, { level: 9 }).length;

/** Gzipped size of the framework alone, bundled and minified like checkout.js. */
async function frameworkBytes(): Promise<number> {
  const r = await build({
    configFile: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: true,
      target: 'es2020',
      lib: { entry: 'bench/dropin-framework.ts', formats: ['iife'], name: 'F' },
    },
  });
  const out = (Array.isArray(r) ? r[0] : r) as { output: { type: string; code?: string }[] };
  return gz(out.output.find((o) => o.type === 'chunk')?.code ?? '');
}

/** The stylesheet as it sits in checkout.js (minified text inside the bundle). */
function stylesheetBytes(js: string): number {
  const start = js.indexOf(':host{');
  const end = js.indexOf('`', start);
  return start < 0 || end < 0 ? 0 : gz(js.slice(start, end));
}

const partName = (url: string, method: string) => {
  const u = new URL(url);
  if (u.pathname.startsWith('/api/dropin/v1/sessions/'))
    return `${method} /api/dropin/v1/sessions/{token}${u.pathname.replace(/^\/api\/dropin\/v1\/sessions\/[^/]+/, '')}`;
  return `${method} ${u.pathname}`;
};

/**
 * The drop-in's cost to a shopper, in headless Chromium on loopback: what it downloads to show the QR (budget
 * 15 KB gzipped) and how long open() takes to put the QR on screen (target under 150 ms), next to the bare API
 * round trip that the popup cannot beat.
 */
export async function benchDropin(runs = 20): Promise<DropinBench> {
  // Always from the current source: a stale bundle would measure someone else's bytes.
  execSync('npx vite build', { stdio: 'ignore' });
  const t = await startTestService({ start: true });
  const shop = await startShop(t.url);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage();
    const key = t.merchant.public_key;

    const measureLoad = async (preset: boolean): Promise<Record<string, number>> => {
      const parts: Record<string, number> = {};
      const onResponse = async (r: import('@playwright/test').Response) => {
        if (r.request().method() === 'OPTIONS' || r.url().includes('/events')) return;
        if (!r.url().startsWith(t.url)) return;
        const body = await r.body().catch(() => Buffer.alloc(0));
        parts[partName(r.url(), r.request().method())] = gzipSync(body).length;
      };
      page.on('response', onResponse);
      await page.addInitScript(
        `window.SHOP_OPTIONS = ${JSON.stringify({ publicKey: key, locale: 'en', ...(preset ? { cryptoCurrency: 'BTC' } : {}) })};`,
      );
      await page.goto(shop.url);
      await page.getByRole('button', { name: 'Buy the mug' }).click();
      if (!preset) {
        // The picker's icons (lazy: the visible ones) load before the customer picks, so they count.
        const btc = page.getByRole('dialog').getByRole('button', { name: /\bBTC\b/ });
        await btc.waitFor();
        await page.waitForLoadState('networkidle').catch(() => {});
        await btc.click();
      }
      await page.locator('img[data-field="qr"]').waitFor();
      await page.waitForLoadState('networkidle').catch(() => {});
      page.off('response', onResponse);
      await page.evaluate('window.checkoutHandle.close()');
      return parts;
    };
    const picker = await measureLoad(false);
    const preset = await measureLoad(true);

    // Passed as source text: tsx's transform would add helpers (__name) that do not exist in the page.
    const timings = (await page.evaluate(`(${IN_PAGE_TIMINGS})(${JSON.stringify(key)}, ${runs})`)) as {
      open: number[];
      api: number[];
    };
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    const js = readFileSync('public/dropin/v1/checkout.js', 'utf8');
    const total = gz(js);
    const framework = await frameworkBytes();
    const stylesheet = stylesheetBytes(js);
    return {
      sizes: { preset, picker, presetTotal: sum(preset), pickerTotal: sum(picker), budget: 15 * 1024 },
      // Parts gzipped alone add up to a little more than the whole: gzip shares its dictionary across a file.
      script: { total, framework, stylesheet, widgetCode: total - framework - stylesheet },
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
if (import.meta.url === `file://${process.argv[1]}`) {
  benchDropin().then((r) => console.log(JSON.stringify(r, null, 2)));
}
