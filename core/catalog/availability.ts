import type { ChainRegistry } from '../chains/registry.js';
import type { Asset } from './types.js';

/** Assets payable in a mode: those whose network the service watches in that mode. */
export function enabledAssets(assets: readonly Asset[], chains: ChainRegistry, mode: 'test' | 'live'): Asset[] {
  return assets.filter((a) => chains.isEnabled(mode, a.network));
}
