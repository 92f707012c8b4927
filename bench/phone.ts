import { execSync, spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/chromium.js';
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

/**
 * A load's whole time, from the new context to the QR (the idle case's 6 s included), and how often a load that ran
 * out of it is tried again. A load that never shows its QR (issue 33's first paired run waited on one without end)
 * is reported in `failures` and tried again; after the last try the case has one sample less, and the run goes on.
 */
const LOAD_TIMEOUT_MS = 60_000;
const ATTEMPTS = 3;
/** How long a tree's target may take to start, and to stop before it is killed. */
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 10_000;

type Kind = 'settled' | 'idle' | 'early' | 'earlyOneTag' | 'demo' | 'demoPageReady';

/** One tree's figures: medians and samples of each case, and what its loads fetched that they should not have. */
export interface PhoneFigures {
  /** Medians, ms from the tap (the click event's own time) to the QR on screen (the widget's `service-checkout:qr`). */
  tapToQrMs: {
    /** The drop-in on a shop of another origin (README's snippet), the page settled (loaded, network idle). */
    settled: number;
    /** The same after the shopper waited 6 s (Node's default keep-alive, 5 s, would have closed the connection). */
    idle: number;
    /** A tap the moment the button works (DOMContentLoaded), the checkout module still on its way (README's snippet). */
    early: number;
    /** The same on a shop with the one script tag alone (no module preload). */
    earlyOneTag: number;
    /** The demo storefront on another origin than the service (?service=), its preset-coin button, the page settled. */
    demo: number;
  };
  /** Median ms from navigation to that demo storefront's buttons working (its "Test mode" line). */
  demoPageReadyMs: number;
  samples: Record<Kind, number[]>;
  /** CORS preflights (OPTIONS) sent by all loads: none expected, the drop-in's requests are CORS-simple. */
  preflights: number;
  /** Files fetched more than once within one load (the same path, from any origin), with the case they came in. */
  duplicates: string[];
  /** Loads that failed or ran out of time (`LOAD_TIMEOUT_MS`), with their case and why: each was tried again. */
  failures: string[];
}

export interface PhoneBench {
  profile: typeof PHONE;
  runs: number;
  /** This tree. */
  after: PhoneFigures;
  /** The tree named by PHONE_BASELINE (a checkout with its node_modules), its loads interleaved with this tree's. */
  before?: PhoneFigures & { tree: string };
  /** Load average (1 min) of the machine when the run started and ended. */
  loadAverage: [number, number];
}

/**
 * Init script of every load: the tap's time (capture phase, before the page's own listener), the QR's (the mark the
 * widget sets once the QR image is in) and the demo's readiness, recorded by observers so nothing polls the page's
 * throttled CPU, and reported as console messages (`__phone qr 123.4`): a page.evaluate while the popup renders
 * would run Playwright's own script on the page's main thread in the middle of what it measures. On `early`, the
 * buy button is clicked the moment the page's scripts have run.
 */
const PROBE = `(() => {
  const report = (what, ms) => console.debug('__phone ' + what + ' ' + ms);
  let tapAt;
  addEventListener('click', (e) => { tapAt ??= e.timeStamp; }, true);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'service-checkout:qr') report('qr', e.startTime - tapAt);
  }).observe({ type: 'mark' });
  let ready = false;
  const check = () => {
    if (!ready && document.getElementById('hint')?.textContent?.startsWith('Test mode')) {
      ready = true;
      report('ready', performance.now());
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  if (window.__EARLY) document.addEventListener('DOMContentLoaded', () => document.getElementById('buy').click());
})();`;

/** What the probe reports, `what` ms, from the page's console; no wait of its own (the load's deadline ends it). */
function reported(page: Page, what: 'qr' | 'ready'): Promise<number> {
  const prefix = `__phone ${what} `;
  return page
    .waitForEvent('console', { predicate: (m) => m.text().startsWith(prefix), timeout: 0 })
    .then((m) => Number(m.text().slice(prefix.length)));
}

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

const settle = (page: Page) => page.waitForLoadState('networkidle');

/** A tree's service, shops and demo site, in a process of its own (bench/phone-target.ts). */
interface Tree {
  dir: string;
  info: { service: string; shop: string; site: string; publicKey: string };
  figures: PhoneFigures;
  stop(): Promise<void>;
}

async function startTree(dir: string): Promise<Tree> {
  // Always from the tree's current source: a stale bundle would measure someone else's code.
  execSync('npx vite build', { cwd: dir, stdio: 'ignore' });
  // The same target script in both trees: a baseline checkout may predate it.
  const script = join(dir, 'bench/phone-target.ts');
  if (resolve(script) !== fileURLToPath(new URL('./phone-target.ts', import.meta.url)))
    copyFileSync(fileURLToPath(new URL('./phone-target.ts', import.meta.url)), script);
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/phone-target.ts'], {
    cwd: dir,
    env: { ...process.env, ROUND_TRIP_MS: String(PHONE.roundTripMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // A target whose shutdown hangs (an open stream, say) must not keep the bench from finishing.
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(kill);
  };
  const info = await new Promise<Tree['info']>((ok, fail) => {
    let out = '';
    const timer = setTimeout(
      () => fail(new Error(`bench/phone-target.ts in ${dir} not ready in ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.stdout.on('data', (d) => {
      out += String(d);
      const m = /READY (\{.*\})\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(JSON.parse(m[1] as string));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`bench/phone-target.ts in ${dir} exited ${code}`));
    });
  }).catch(async (e) => {
    await stop();
    throw e;
  });
  const samples = Object.fromEntries(
    ['settled', 'idle', 'early', 'earlyOneTag', 'demo', 'demoPageReady'].map((k) => [k, []]),
  ) as unknown as Record<Kind, number[]>;
  return {
    dir,
    info,
    figures: {
      tapToQrMs: {} as PhoneFigures['tapToQrMs'],
      demoPageReadyMs: 0,
      samples,
      preflights: 0,
      duplicates: [],
      failures: [],
    },
    stop,
  };
}

/**
 * What one load fetched that it should not have: preflights, and a path fetched twice (from any origin: a preload
 * that resolved against the page's origin, or whose mode differs from the load it was meant for, downloads again).
 */
function watchFetches(page: Page, kind: string, figures: PhoneFigures): void {
  const seen = new Set<string>();
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!url.protocol.startsWith('http') || url.pathname === '/favicon.ico') return;
    if (r.method() === 'OPTIONS') figures.preflights++;
    if (r.method() !== 'GET' || r.resourceType() === 'eventsource') return;
    if (seen.has(url.pathname)) figures.duplicates.push(`${kind}: ${url.pathname}`);
    seen.add(url.pathname);
  });
}

/** One fresh load of `kind` on a tree: tap -> QR, and for the demo its page-ready; throws past `LOAD_TIMEOUT_MS`. */
async function load(
  browser: Browser,
  tree: Tree,
  kind: Exclude<Kind, 'demoPageReady'>,
): Promise<{ tapToQr: number; pageReady?: number }> {
  const { info, figures } = tree;
  const early = kind.startsWith('early');
  const options = kind === 'demo' ? {} : { publicKey: info.publicKey, locale: 'en', cryptoCurrency: 'USDTERC20' };
  const [context, page] = await phoneContext(browser, early, options);
  // Playwright's own waits (goto, networkidle, click) give up with the load; the wait for a QR mark that never comes
  // has no timeout of its own (the one that hung issue 33's first paired run): the deadline closes the context.
  context.setDefaultTimeout(LOAD_TIMEOUT_MS);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no QR within ${LOAD_TIMEOUT_MS} ms`)), LOAD_TIMEOUT_MS);
  });
  watchFetches(page, kind, figures);
  const qr = reported(page, 'qr');
  const ready = reported(page, 'ready');
  // Ended by the closed context when the load fails first.
  qr.catch(() => {});
  ready.catch(() => {});
  const run = async () => {
    let pageReady: number | undefined;
    if (kind === 'demo') {
      // The demo storefront on a third origin (the operator's own hostname, its headers passed on as they are).
      await page.goto(`${info.site}/demo/?service=${encodeURIComponent(info.service)}`);
      pageReady = Math.round(await ready);
      await settle(page);
      await page.getByRole('button', { name: 'Buy the hoodie with USDT' }).click();
    } else {
      await page.goto(kind === 'earlyOneTag' ? `${info.shop}/one-tag` : info.shop);
      if (!early) {
        await settle(page);
        if (kind === 'idle') await page.waitForTimeout(IDLE_MS);
        await page.getByRole('button', { name: 'Buy the mug' }).click();
      }
    }
    return { tapToQr: Math.round((await qr) * 10) / 10, ...(pageReady !== undefined && { pageReady }) };
  };
  const running = run();
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
    await context.close();
    // Ended by the closed context; its error is the deadline's.
    await running.catch(() => {});
  }
}

/** One load of `kind` into the tree's samples, tried again (up to `ATTEMPTS`) if it fails or runs out of time. */
async function measure(browser: Browser, tree: Tree, kind: Exclude<Kind, 'demoPageReady'>): Promise<void> {
  const { figures } = tree;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const r = await load(browser, tree, kind);
      figures.samples[kind].push(r.tapToQr);
      if (r.pageReady !== undefined) figures.samples.demoPageReady.push(r.pageReady);
      return;
    } catch (e) {
      const why = `${kind}, try ${attempt}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
      figures.failures.push(why);
      process.stderr.write(`phone bench (${tree.dir}): ${why}\n`);
    }
  }
}

/**
 * `npm run bench -- phone`: tap -> QR on the phone profile, medians of `runs` fresh loads (new browser context, no
 * cache) per case, and the demo storefront's page-ready. With PHONE_BASELINE=<dir> (another checkout, built here
 * too), the same cases on that tree, each load right after this tree's (the order alternating), so a machine that
 * slows down mid-run slows both alike. Targets: each settled tap under 250 ms, the early tap under 450 ms, the
 * demo's page-ready under 1,200 ms; no preflight, nothing fetched twice. Every load has a deadline
 * (`LOAD_TIMEOUT_MS`, then tried again), so the run always ends.
 */
export async function benchPhone(runs = 7): Promise<PhoneBench> {
  const loadStart = loadavg()[0] as number;
  const trees: Tree[] = [];
  const baseline = process.env.PHONE_BASELINE;
  let browser: Browser | undefined;
  try {
    trees.push(await startTree(process.cwd()));
    if (baseline) trees.push(await startTree(resolve(baseline)));
    browser = await chromium.launch(chromiumLaunchOptions);
    for (let i = 0; i < runs; i++)
      for (const kind of ['settled', 'idle', 'early', 'earlyOneTag', 'demo'] as const)
        for (const tree of i % 2 === 0 ? trees : [...trees].reverse()) await measure(browser, tree, kind);
    // A case whose every load failed has no median (NaN, shown as such): its failures say why.
    const m = (xs: number[]) => (xs.length > 0 ? Math.round(median(xs)) : Number.NaN);
    for (const { figures: f } of trees) {
      for (const k of ['settled', 'idle', 'early', 'earlyOneTag', 'demo'] as const) f.tapToQrMs[k] = m(f.samples[k]);
      f.demoPageReadyMs = m(f.samples.demoPageReady);
    }
    const [after, before] = trees as [Tree, Tree | undefined];
    return {
      profile: PHONE,
      runs,
      after: after.figures,
      ...(before && { before: { ...before.figures, tree: before.dir } }),
      loadAverage: [loadStart, loadavg()[0] as number],
    };
  } finally {
    await browser?.close();
    for (const t of trees) await t.stop();
  }
}

// `npx tsx bench/phone.ts` runs it alone.
runIfMain(import.meta.url, benchPhone);
