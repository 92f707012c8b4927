import type { ChainRegistry } from '../chains/registry.js';
import { chainKey } from '../chains/types.js';
import type { Asset, ChainFamily } from './types.js';

/** Assets payable in a mode: those whose network the service watches in that mode and can reach now. */
export function enabledAssets(assets: readonly Asset[], chains: ChainRegistry, mode: 'test' | 'live'): Asset[] {
  return assets.filter((a) => chains.isEnabled(mode, a.network));
}

/**
 * Assets a merchant of a mode can be offered: their network is watched in that mode (test: the sandbox of every
 * network; live: what CHAINS_CONFIG configures), reachable right now or not. A node that is down for a while does
 * not take its assets out of a merchant's pickers; /currencies, which says what is payable this instant, does.
 */
export function offeredAssets(assets: readonly Asset[], chains: ChainRegistry, mode: 'test' | 'live'): Asset[] {
  return assets.filter((a) => chains.get(chainKey(mode, a.network)) !== undefined);
}

/** Families with a live chain watcher (EVM, Bitcoin-family, Monero); the others exist only on the sandbox chain. */
const LIVE_FAMILIES: ReadonlySet<ChainFamily> = new Set(['evm', 'utxo', 'monero']);

/** Whether an asset can go live at all, or is test-only (sandbox): TRX, USDTTRC20, SOL and XRP have no live watcher. */
export function canGoLive(asset: Pick<Asset, 'family'>): boolean {
  return LIVE_FAMILIES.has(asset.family);
}

/** The networks CHAINS_CONFIG accepts, in catalog order: `btc`, `eth`, `ltc`, ... (never `trx`, `sol`, `xrp`). */
export function liveNetworks(assets: readonly Asset[]): string[] {
  return [...new Set(assets.filter(canGoLive).map((a) => a.network))];
}
