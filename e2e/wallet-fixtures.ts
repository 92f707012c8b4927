import { test as base, expect } from './fixtures.js';
import { type LiveWorld, startLiveWorld } from './live-world.js';

export { CONFIRMATIONS, EXPLORER, type LiveWorld } from './live-world.js';
export { injectTestWallet, type WalletCall, walletCalls } from './test-wallet.js';

/** The wallet specs' world, one per worker: see startLiveWorld. */
export const test = base.extend<object, { live: LiveWorld }>({
  live: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const world = await startLiveWorld();
      await use(world);
      await world.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

export { expect };
