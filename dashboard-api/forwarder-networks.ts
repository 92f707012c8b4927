import type { ApiDeps } from '../api-kit/deps.js';
import type { ChainsConfig } from '../core/chains/chains-config.js';
import type { Sweeper } from '../core/chains/family.js';

/** An EVM network with a forwarder factory: its sweeper and its configuration (rpcUrl stays on the server). */
export interface ForwarderNetwork {
  sweeper: Sweeper;
  config: ChainsConfig['evm'][number];
}

/** The networks whose payments of a merchant with a payout address go to forwarders. */
export function forwarderNetworks(deps: ApiDeps): ForwarderNetwork[] {
  return deps.sweepers.map((sweeper) => ({ sweeper, config: sweeper.config }));
}
