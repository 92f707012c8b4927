import { type Address, createPublicClient, http } from 'viem';
import type { ApiDeps } from '../api-kit/deps.js';
import type { EvmNetworkConfig } from '../core/chains/evm/config.js';
import { EvmChain } from '../core/chains/evm/evm-chain.js';
import { chainKey } from '../core/chains/types.js';
import type { ForwarderSweeper } from '../core/forwarders/sweeper.js';

/** An EVM network with a forwarder factory: its sweeper and its configuration (rpcUrl stays on the server). */
export interface ForwarderNetwork {
  sweeper: ForwarderSweeper;
  config: EvmNetworkConfig;
}

/** The networks whose payments of a merchant with a payout address go to forwarders. */
export function forwarderNetworks(deps: ApiDeps): ForwarderNetwork[] {
  return deps.sweepers.flatMap((sweeper) => {
    const source = deps.chains.get(chainKey('live', sweeper.network));
    return source instanceof EvmChain ? [{ sweeper, config: source.config }] : [];
  });
}

/**
 * The networks where `address` holds code: a contract payout (a Safe, say) is fine, but its owner must be able to
 * use it on every network its payments go to. A node that does not answer is named apart, so the warning says so.
 */
export async function codeAt(
  networks: ForwarderNetwork[],
  address: Address,
): Promise<{ contractOn: string[]; uncheckedOn: string[] }> {
  const contractOn: string[] = [];
  const uncheckedOn: string[] = [];
  await Promise.all(
    networks.map(async ({ config }) => {
      const client = createPublicClient({
        transport: http(config.rpcUrl, { timeout: Math.min(config.timeoutMs, 5000), retryCount: 0 }),
      });
      try {
        const code = await client.getCode({ address });
        if (code && code !== '0x') contractOn.push(config.network);
      } catch {
        uncheckedOn.push(config.network);
      }
    }),
  );
  return { contractOn: contractOn.sort(), uncheckedOn: uncheckedOn.sort() };
}
