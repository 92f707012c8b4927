import { type Address, getAddress, keccak256, type PublicClient } from 'viem';
import { forwarderFactoryAbi } from '../../../../contracts/build/forwarders.js';
import { forwarderAddress, implementationOf } from './address.js';

/**
 * Why the configured factory cannot take forwarder payments, or null when it can: it must have code and compute the
 * addresses we hand out (the same CREATE2 rule, the same contract). A call that reverts (not a ForwarderFactory) is a
 * problem of the address; a node that does not answer is retried on the next pass with payments still refused.
 */
export async function factoryProblem(
  client: PublicClient,
  factory: Address,
  chainId: number,
  safe: (e: unknown) => string,
): Promise<string | null> {
  try {
    const code = await client.getCode({ address: factory });
    if (!code || code === '0x')
      return `forwarderFactory ${factory} has no code on chain ${chainId} (deploy it: admin evm deploy-factory)`;
    const probe = { payout: '0x000000000000000000000000000000000000dEaD' as Address, salt: keccak256('0x01') };
    const [implementation, predicted] = await Promise.all([
      client.readContract({ address: factory, abi: forwarderFactoryAbi, functionName: 'implementation' }),
      client.readContract({
        address: factory,
        abi: forwarderFactoryAbi,
        functionName: 'forwarderAddress',
        args: [probe.payout, probe.salt],
      }),
    ]);
    if (
      getAddress(implementation) !== implementationOf(factory) ||
      getAddress(predicted) !== forwarderAddress(factory, probe.payout, probe.salt)
    )
      return `forwarderFactory ${factory} computes other forwarder addresses than this service`;
    return null;
  } catch (e) {
    return `forwarderFactory ${factory} could not be checked: ${safe(e)}`;
  }
}
