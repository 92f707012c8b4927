import type { AddressAllocator } from '../addresses/types.js';
import type { Asset, ChainFamily } from '../catalog/types.js';
import { invalid } from '../errors.js';
import type { BitcoinNetworkConfig } from './bitcoin/config.js';
import { bitcoinFamily, utxoNetOf } from './bitcoin/family.js';
import type { UtxoNet } from './bitcoin/utxo-params.js';
import type { EvmNetworkConfig } from './evm/config.js';
import { evmFamily } from './evm/family.js';
import type { AccountKeyScheme, ChainFamilyDescriptor, Forwarders, SimulatedChain, ViewKeySettings } from './family.js';
import type { MoneroNetworkConfig } from './monero/config.js';
import { moneroFamily } from './monero/family.js';
import { sandboxFamily } from './sandbox/family.js';

/**
 * Every chain family the service knows, in the order their chains are watched. Adding a family: a folder
 * core/chains/<family>/ with its descriptor (core/chains/family.ts), its address shapes gathered by
 * core/catalog/assets.ts, and one line here (docs/architecture.md, "Adding a chain family").
 */
export const families: readonly ChainFamilyDescriptor[] = [sandboxFamily, evmFamily, bitcoinFamily, moneroFamily];

/** The family serving live payments of a catalog family (`Asset.family`); none: no family does (test-only). */
export function familyOf(family: ChainFamily): ChainFamilyDescriptor | undefined {
  return families.find((f) => f.assetFamilies.includes(family));
}

/**
 * The live networks of CHAINS_CONFIG, by kind of node: each part is read by its family's descriptor (`readConfig`),
 * and core/chains/chains-config.ts puts the parts together.
 */
export interface ChainsConfig {
  evm: EvmNetworkConfig[];
  /** Bitcoin-family networks (`btc`, `ltc`, `doge`): a Bitcoin Core-compatible node each. */
  utxo: BitcoinNetworkConfig[];
  /** `xmr`: the merchant's monerod, or null. */
  monero: MoneroNetworkConfig | null;
}

/**
 * Every kind of merchant account key (EVM's, then each Bitcoin-family chain's): core/addresses/xpubs.ts, the admin
 * CLI's `xpub` commands and Settings find a kind here by its `chain`.
 */
export const accountKeys: readonly AccountKeyScheme[] = families.flatMap((f) => f.accountKeys ?? []);

/** The `chain` of each kind of account key (`evm`, `btc`, `ltc`, `doge`): what `--chain` and Settings accept. */
export const keyChains = accountKeys.map((k) => k.chain) as [string, ...string[]];

/** Test mode's simulated chain (the sandbox's): the sandbox routes send transfers and mine blocks on it here. */
export const simulated: SimulatedChain = sandboxFamily.simulated;

/** The merchants' view-key wallets (Monero's): the dashboard's Settings and `admin viewkey` read and set them here. */
export const viewKeys: ViewKeySettings = moneroFamily.viewKeys;

/** Proves a refund sent by its transaction key (Monero's): the refund routes of both APIs reach it here. */
export const proveRefund = moneroFamily.proveRefund;

/** A refund's unsigned PSBT (the Bitcoin family's): the refund routes of both APIs and `admin refund psbt` reach it here. */
export const refundPsbt = bitcoinFamily.refundPsbt;

/**
 * The forwarders of EVM payments (EVM's): the dashboard's Sweeps page and payout setting and the admin CLI's `evm sweep`
 * and `payout set` reach them here.
 */
export const forwarders: Forwarders = evmFamily.forwarders;

/**
 * The network of a chain's configured node (main, test, regtest) that keys and addresses are read for; null: none
 * configured (then mainnet). Only Bitcoin-family keys depend on it.
 */
export const keyNetOf = utxoNetOf;

/** The network (main, test, regtest) a merchant's key and its addresses are read for. */
export type KeyNet = UtxoNet;

/**
 * The catalog as the configured nodes see it (chain ids, token contracts, test-network address forms): each
 * family's `configure` in turn. The service's catalog and the admin CLI's come from here.
 */
export function configuredAssets(assets: readonly Asset[], networks: ChainsConfig): Asset[] {
  return families.reduce<Asset[]>((all, f) => f.configure?.(all, networks) ?? all, [...assets]);
}

/**
 * Live mode's allocator: each payment goes to the allocator of its asset's family; an asset no family allocates for
 * (the test-only networks) is refused.
 */
export function allocatorByFamily(
  built: readonly { family: ChainFamilyDescriptor; allocator: AddressAllocator | undefined }[],
): AddressAllocator {
  const byFamily = new Map<ChainFamily, AddressAllocator>();
  for (const { family, allocator } of built)
    if (allocator) for (const f of family.assetFamilies) byFamily.set(f, allocator);
  return {
    allocate(trx, merchant, asset, paymentId) {
      const allocator = byFamily.get(asset.family);
      if (!allocator) throw invalid('currency', `Live payments in ${asset.code} are not supported yet`);
      return allocator.allocate(trx, merchant, asset, paymentId);
    },
  };
}
