import { type Address, createPublicClient, http } from 'viem';
import type { EvmNetworkConfig } from '../config.js';

/**
 * The forwarder networks where `address` holds code. A contract payout (a Safe, say) is fine, but its owner must be
 * able to use it on every network its payments go to, and it must accept the native coin. A node that does not
 * answer is named apart, so the warning can say what was not checked. The RPC URL never leaves this function.
 */
export async function payoutCodeOn(
  networks: readonly EvmNetworkConfig[],
  address: Address,
): Promise<{ contractOn: string[]; uncheckedOn: string[] }> {
  const contractOn: string[] = [];
  const uncheckedOn: string[] = [];
  await Promise.all(
    networks
      .filter((n) => n.forwarders)
      .map(async (n) => {
        const client = createPublicClient({
          transport: http(n.rpcUrl, { timeout: Math.min(n.timeoutMs, 5000), retryCount: 0 }),
        });
        try {
          const code = await client.getCode({ address });
          if (code && code !== '0x') contractOn.push(n.network);
        } catch {
          uncheckedOn.push(n.network);
        }
      }),
  );
  return { contractOn: contractOn.sort(), uncheckedOn: uncheckedOn.sort() };
}
