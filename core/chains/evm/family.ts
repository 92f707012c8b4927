import { bytesToHex, getAddress } from 'viem';
import { createHdAllocator } from '../../addresses/hd-allocator.js';
import type { ChainFamilyDescriptor } from '../family.js';
import { chainKey } from '../types.js';
import { evmAccountKey } from './account-key.js';
import { checkEvmAddress } from './address-check.js';
import { applyChainsConfig, parseChainsConfig } from './config.js';
import { EvmChain } from './evm-chain.js';
import { createForwarderAllocator } from './forwarders/allocator.js';
import { payoutCodeOn } from './forwarders/payout-code.js';
import { merchantSweep, merchantUnswept, WALLET_SWEEP_MAX } from './forwarders/sweep-transaction.js';
import { ForwarderSweeper } from './forwarders/sweeper.js';
import { evmWalletPay } from './wallet-pay.js';

/**
 * EVM networks (eth, bsc, matic, base): an RPC node each; payments pay to a forwarder where the merchant set a payout
 * address and the network has a factory (swept to the payout), else to child 0/N of the merchant's one EVM key.
 */
export const evmFamily: ChainFamilyDescriptor & Required<Pick<ChainFamilyDescriptor, 'forwarders'>> = {
  name: 'evm',
  assetFamilies: ['evm'],
  configure: (assets, networks) => applyChainsConfig(assets, networks.evm),
  readConfig: (entries, assets) => ({ evm: parseChainsConfig({ networks: entries }, assets) }),
  isLive: (networks) => networks.evm.length > 0,
  checkAddress: checkEvmAddress,
  // 20 seed bytes as an account, in EIP-55.
  sandboxAddress: (_asset, seed) => getAddress(bytesToHex(seed.subarray(0, 20))),
  accountKeys: [evmAccountKey],
  walletPay: evmWalletPay,
  forwarders: { walletSweepMax: WALLET_SWEEP_MAX, unswept: merchantUnswept, walletSweep: merchantSweep, payoutCodeOn },
  build({ db, clock, logger, chains, networks }) {
    const sweepers = networks.evm.flatMap((n) =>
      n.forwarders ? [new ForwarderSweeper(n, n.forwarders, { db, clock, logger, chains })] : [],
    );
    return {
      // The stored checkpoint tells a restarted watcher how far the chain had got, so a lagging node is waited for.
      sources: networks.evm.map(
        (n) => new EvmChain(n, { checkpointHeight: () => chains.headOf(chainKey('live', n.network)) }),
      ),
      sweepers,
      liveAllocator: createForwarderAllocator({
        factoryOf: (network) => networks.evm.find((n) => n.network === network)?.forwarders?.factory ?? null,
        problemOf: (network) => sweepers.find((s) => s.network === network)?.status().factoryProblem ?? null,
        now: () => clock.now(),
        // EVM keys have no node network (every EVM network shares the one key) and no gap limit.
        fallback: createHdAllocator({ netOf: () => null }),
      }),
    };
  },
};
