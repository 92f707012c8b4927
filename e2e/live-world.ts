import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import type { Address } from 'viem';
import { setXpub } from '../core/addresses/xpubs.js';
import {
  ANVIL_CHAIN_ID,
  type Anvil,
  compileTestToken,
  deployForwarderFactory,
  deployTestToken,
  startAnvil,
} from '../core/chains/evm/testing/anvil.js';
import { startRatesServer } from '../core/chains/evm/testing/rates-server.js';
import { updateMerchant } from '../core/merchants/merchants.js';
import { type Received, startReceiver } from '../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { startShop } from './shop-server.js';

/** Blocks a deposit needs on the live test network: the tests mine them by hand. */
export const CONFIRMATIONS = 2;
export const EXPLORER = 'https://explorer.example';

export interface LiveWorld {
  service: TestService;
  anvil: Anvil;
  usdt: Address;
  /** The ForwarderFactory on the network, when the world was started with `forwarders`. */
  factory: Address | null;
  shopUrl: string;
  webhooks: Received[];
}

/**
 * A live-mode world (the wallet specs' and bench/wallet.ts's): a real anvil (mining only when asked) with the
 * 6-decimal test token as USDTERC20, a CoinGecko-compatible rate server, the real service with CHAINS_CONFIG on
 * them, a live merchant with a random xpub whose allowed origin is the shop, and the shop page on another origin.
 * With `forwarders`, a ForwarderFactory deployed on anvil is the network's `forwarderFactory` (no relayer), and
 * its sweeper looks every 200 ms.
 */
export async function startLiveWorld(
  o: { forwarders?: boolean } = {},
): Promise<LiveWorld & { close(): Promise<void> }> {
  const anvil = await startAnvil();
  const token = compileTestToken();
  const usdt = await deployTestToken(anvil, token, 'USDT');
  // Every token of the network needs its contract on a chain other than mainnet.
  const usdc = await deployTestToken(anvil, token, 'USDC');
  let factory: Address | null = null;
  if (o.forwarders) {
    factory = await deployForwarderFactory(anvil);
  }
  const rates = await startRatesServer({ ethereum: 3000, tether: 1, 'usd-coin': 1 });
  const configFile = join(tmpdir(), `wallet-chains-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(
    configFile,
    JSON.stringify({
      networks: {
        eth: {
          rpcUrl: anvil.url,
          chainId: ANVIL_CHAIN_ID,
          confirmations: CONFIRMATIONS,
          pollIntervalMs: 100,
          explorerUrl: EXPLORER,
          walletRpcUrl: anvil.url,
          tokens: { USDTERC20: usdt, USDCERC20: usdc },
          ...(factory ? { forwarderFactory: factory, sweepIntervalMs: 200 } : {}),
        },
      },
    }),
  );
  const receiver = await startReceiver('');
  const service = await startTestService({
    mode: 'live',
    start: true,
    webhookUrl: receiver.url,
    env: { CHAINS_CONFIG: configFile, RATES_BASE_URL: rates.url, EXPIRY_SWEEP_MS: '250', LOG_LEVEL: 'silent' },
  });
  receiver.secret = service.merchant.webhook_secret;
  const shop = await startShop(service.url);
  const { db, clock } = service.service.deps;
  await updateMerchant(db, clock, service.merchant.merchant_id, { allowedOrigins: [new URL(shop.url).origin] });
  const xpub = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'").publicExtendedKey;
  if (!(await setXpub(db, clock, service.merchant.merchant_id, 'evm', xpub)).ok) throw new Error('xpub refused');
  // The live assets are offered once the node answered the watcher's first poll.
  for (let i = 0; !(await service.api('/api/v1/currencies')).text.includes('"USDTERC20"'); i++) {
    if (i > 200) throw new Error('the live network never became payable');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    service,
    anvil,
    usdt,
    factory,
    shopUrl: shop.url,
    webhooks: receiver.received,
    async close() {
      await shop.close();
      await service.close();
      await receiver.close();
      await rates.close();
      await anvil.stop();
      rmSync(configFile, { force: true });
    },
  };
}
