import { execSync } from 'node:child_process';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { startTcpProxy } from '../core/chains/evm/testing/tcp-proxy.js';
import { rememberDemoKey } from '../dropin-api/demo.js';
import { chromiumLaunchOptions } from '../e2e/chromium.js';
import { startShop } from '../e2e/shop-server.js';
import { startTestService } from '../server/testing/harness.js';
import { runIfMain } from './standalone.js';
import { median } from './stats.js';

/**
 * A mid-range phone on a mobile network. Bandwidth, CPU and the cache go through Chromium's DevTools protocol; the
 * round trip goes through a delaying TCP proxy in front of the service, as DevTools' latency delays neither CORS
 * preflights nor new connections, which are what a shop on another origin pays for.
 */
export const PHONE = {
  roundTripMs: 150,
  downKbps: 1600,
  upKbps: 750,
  cpuSlowdown: 4,
  viewport: { width: 390, height: 844 },
  cache: 'off',
} as const;

/** How long the shopper waits on a settled page before the idle case's tap: more than Node's default keep-alive. */
const IDLE_MS = 6000;

export interface PhoneBench {
  profile: typeof PHONE;
  runs: number;
  /** Medians, ms from the tap (the click event's own time) to the QR on screen (the widget's `service-checkout:qr`). */
  tapToQrMs: {
    /** The drop-in on a shop of another origin, the page settled (loaded, network idle). */
    settled: number;
    /** The same after the shopper waited 6 s (Node's default keep-alive, 5 s, would have closed the connection). */
    idle: number;
    /** A tap the moment the button works (DOMContentLoaded), the checkout module still on its way (README's snippet). */
    early: number;
    /** The same on a shop with the one script tag alone (no module preload). */
    earlyOneTag: number;
    /** The demo storefront (same origin as the service), its preset-coin button, the page settled. */
    demo: number;
  };
  /** Median ms from navigation to the demo storefront's buttons working (its "Test mode" line). */
  demoPageReadyMs: number;
  samples: Record<'settled' | 'idle' | 'early' | 'earlyOneTag' | 'demo' | 'demoPageReady', number[]>;
}

/**
 * Init script of every load: the tap's time (capture phase, before the page's own listener), the QR's (the mark the
 * widget sets once the QR image is in) and the demo's readiness, recorded by observers so nothing polls the page's
 * throttled CPU. On `early`, the buy button is clicked the moment the page's scripts have run.
 */
const PROBE = `(() => {
  addEventListener('click', (e) => { window.__tapAt ??= e.timeStamp; }, true);
  window.__qrAt = new Promise((resolve) => new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'service-checkout:qr') resolve(e.startTime);
  }).observe({ type: 'mark' }));
  window.__readyAt = new Promise((resolve) => {
    const check = () => {
      if (document.getElementById('hint')?.textContent?.startsWith('Test mode')) resolve(performance.now());
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  });
  if (window.__EARLY) document.addEventListener('DOMContentLoaded', () => document.getElementById('buy').click());
})();`;

async function phoneContext(browser: Browser, early: boolean, shopOptions: object): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({ viewport: PHONE.viewport, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: (PHONE.downKbps * 1000) / 8,
    uploadThroughput: (PHONE.upKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
  await page.addInitScript(
    `window.SHOP_OPTIONS = ${JSON.stringify(shopOptions)}; window.__EARLY = ${early};\n${PROBE}`,
  );
  return [context, page];
}

/** Tap -> QR in ms, read from the page once the QR is in. */
async function tapToQr(page: Page): Promise<number> {
  const qrAt = (await page.evaluate('window.__qrAt')) as number;
  const tapAt = (await page.evaluate('window.__tapAt')) as number;
  return Math.round((qrAt - tapAt) * 10) / 10;
}

const settle = (page: Page) => page.waitForLoadState('networkidle');

/**
 * `npm run bench -- phone`: tap -> QR on the phone profile, medians of `runs` fresh loads (new browser context, no
 * cache) per case, and the demo storefront's page-ready. Targets: each settled tap under 300 ms (one round trip
 * plus rendering), the early tap under 450 ms.
 */
export async function benchPhone(runs = 7): Promise<PhoneBench> {
  // Always from the current source: a stale bundle would measure someone else's code.
  execSync('npx vite build', { stdio: 'ignore' });
  const t = await startTestService({ start: true });
  await rememberDemoKey(t.service.deps.db, t.merchant.public_key);
  const proxy = await startTcpProxy(Number(new URL(t.url).port), { roundTripMs: PHONE.roundTripMs });
  const shop = await startShop(proxy.url);
  const browser = await chromium.launch(chromiumLaunchOptions);
  const samples: PhoneBench['samples'] = {
    settled: [],
    idle: [],
    early: [],
    earlyOneTag: [],
    demo: [],
    demoPageReady: [],
  };
  const options = { publicKey: t.merchant.public_key, locale: 'en', cryptoCurrency: 'USDTERC20' };
  try {
    for (let i = 0; i < runs; i++) {
      for (const kind of ['settled', 'idle', 'early', 'earlyOneTag'] as const) {
        const early = kind.startsWith('early');
        const [context, page] = await phoneContext(browser, early, options);
        try {
          await page.goto(kind === 'earlyOneTag' ? `${shop.url}/one-tag` : shop.url);
          if (!early) {
            await settle(page);
            if (kind === 'idle') await page.waitForTimeout(IDLE_MS);
            await page.getByRole('button', { name: 'Buy the mug' }).click();
          }
          samples[kind].push(await tapToQr(page));
        } finally {
          await context.close();
        }
      }
      const [context, page] = await phoneContext(browser, false, {});
      try {
        await page.goto(`${proxy.url}/demo/`);
        samples.demoPageReady.push(Math.round((await page.evaluate('window.__readyAt')) as number));
        await settle(page);
        await page.getByRole('button', { name: 'Buy the hoodie with USDT' }).click();
        samples.demo.push(await tapToQr(page));
      } finally {
        await context.close();
      }
    }
    const m = (xs: number[]) => Math.round(median(xs));
    return {
      profile: PHONE,
      runs,
      tapToQrMs: {
        settled: m(samples.settled),
        idle: m(samples.idle),
        early: m(samples.early),
        earlyOneTag: m(samples.earlyOneTag),
        demo: m(samples.demo),
      },
      demoPageReadyMs: m(samples.demoPageReady),
      samples,
    };
  } finally {
    await browser.close();
    await shop.close();
    await proxy.close();
    await t.close();
  }
}

// `npx tsx bench/phone.ts` runs it alone.
runIfMain(import.meta.url, benchPhone);
