import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/chromium.js';
import { startLiveWorld } from '../e2e/live-world.js';
import { injectTestWallet, walletCalls } from '../e2e/test-wallet.js';
import { gzipBest } from '../scripts/gzip-best.js';
import { runIfMain } from './standalone.js';
import { median } from './stats.js';

const OUT = 'public/dropin/v1';
const BUDGET = 3 * 1024;

export interface WalletBench {
  /** The wallet chunk gzipped as served (the build's own gzip). */
  chunkGzip: number;
  budget: number;
  /** Its words in another locale, fetched with it when the checkout is not in English (German). */
  localeGzip: number;
  /** Click on "Pay with <wallet>" -> the wallet receives eth_sendTransaction, median over `runs`. */
  clickToSendMs: number;
  runs: number;
}

/**
 * Wallet pay's cost, in headless Chromium on loopback against a live merchant on a real anvil: the chunk's gzipped
 * bytes (budget 3 KB), and the time from the click to the wallet receiving eth_sendTransaction. Between them the
 * checkout asks for the account, the chain and the balance (send-payment.ts); the test wallet answers the first two
 * itself and forwards the balance read to anvil through the bench process, as an extension asks its node.
 */
export async function benchWallet(runs = 9): Promise<WalletBench> {
  execSync('npx vite build', { stdio: 'ignore' });
  const chunk = readdirSync(`${OUT}/chunks`).find((f) => /^wallet-pay-[\w-]+\.js$/.test(f));
  if (!chunk) throw new Error('no wallet chunk in the build');
  const chunkGzip = (await gzipBest(readFileSync(`${OUT}/chunks/${chunk}`))).length;
  const localeGzip = (await gzipBest(readFileSync(`${OUT}/locales/wallet/de.json`))).length;

  const world = await startLiveWorld();
  const browser = await chromium.launch(chromiumLaunchOptions);
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      // tsx compiles this file with esbuild's keepNames: the functions handed to the page call its __name helper,
      // which the page lacks (Playwright runs under its own loader, so the specs never meet this).
      await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
      // The wallet refuses at the last step: the request is timed, and no transaction piles up on the node.
      await injectTestWallet(page, world.anvil, { wallets: [{ name: 'Bench Wallet', uuid: 'b-1' }], reject: true });
      await page.addInitScript((key) => {
        const w = window as unknown as { SHOP_OPTIONS: unknown; __clickAt: number };
        w.SHOP_OPTIONS = { publicKey: key, locale: 'en', cryptoCurrency: 'ETH' };
        // Capture phase on window: the click inside the checkout's shadow root passes here first.
        addEventListener('click', (e) => (w.__clickAt = e.timeStamp), true);
      }, world.service.merchant.public_key);
      await page.goto(world.shopUrl);
      await page.getByRole('button', { name: 'Buy the mug' }).click();
      const button = page.getByRole('button', { name: 'Pay with Bench Wallet' });
      await button.click();
      await page.getByRole('alert').waitFor();
      const send = (await walletCalls(page)).find((c) => c.method === 'eth_sendTransaction');
      const clickAt = await page.evaluate(() => (window as unknown as { __clickAt: number }).__clickAt);
      if (!send) throw new Error('the wallet never got eth_sendTransaction');
      times.push(send.at - clickAt);
      await page.close();
    }
  } finally {
    await browser.close();
    await world.close();
  }
  return {
    chunkGzip,
    budget: BUDGET,
    localeGzip,
    clickToSendMs: Math.round(median(times) * 10) / 10,
    runs,
  };
}

// `npx tsx bench/wallet.ts` runs it alone.
runIfMain(import.meta.url, benchWallet);
