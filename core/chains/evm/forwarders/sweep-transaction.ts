import type { Kysely } from 'kysely';
import { type Address, encodeFunctionData, type Hex } from 'viem';
import { forwarderFactoryAbi } from '../../../../contracts/build/forwarders.js';
import { type Unswept, unsweptForwarders } from '../../../forwarders/store.js';
import type { Database } from '../../../store/schema.js';
import type { WalletSweep } from '../../family.js';
import { chainKey } from '../../types.js';
import type { EvmNetworkConfig } from '../config.js';

/** One forwarder's entry in flushMany: its payout and salt, and the token contracts it holds. */
export interface SweepEntry {
  payout: Address;
  salt: Hex;
  tokens: Address[];
}

/** The flushMany call data for forwarders. */
export function flushManyData(sweeps: SweepEntry[]): Hex {
  return encodeFunctionData({ abi: forwarderFactoryAbi, functionName: 'flushMany', args: [sweeps] });
}

/** A forwarder's entry: the contracts of the tokens among its unswept deposits (the native coin always goes). */
export function sweepEntry(u: Unswept, network: Pick<EvmNetworkConfig, 'tokens'>): SweepEntry {
  const tokens = [...u.units.keys()].flatMap((asset) => {
    const t = network.tokens.find((x) => x.asset === asset);
    return t ? [t.contract as Address] : [];
  });
  return { payout: u.forwarder.payout as Address, salt: u.forwarder.salt as Hex, tokens };
}

/** At most this many forwarders go into one wallet sweep (one flushMany): a block's gas limit bounds it. */
export const WALLET_SWEEP_MAX = 100;

/** A merchant's forwarders on a network holding confirmed deposits that no flush covered yet, oldest first. */
export async function merchantUnswept(
  db: Kysely<Database>,
  network: EvmNetworkConfig,
  merchantId: string,
  now: number,
): Promise<Unswept[]> {
  if (!network.forwarders) return [];
  const key = chainKey('live', network.network);
  const head = await db.selectFrom('chain_checkpoints').select('height').where('chain', '=', key).executeTakeFirst();
  if (!head) return [];
  return unsweptForwarders(db, {
    network: network.network,
    chainKey: key,
    confirmedHeight: Number(head.height) - network.confirmations + 1,
    now,
    merchantId,
  });
}

/**
 * What the dashboard's "Sweep" button and `admin evm sweep --calldata` send: one flushMany to the network's factory
 * for the merchant's oldest unswept forwarders (up to WALLET_SWEEP_MAX), each with its own payout. Null when there is
 * nothing to sweep. Anyone may send it: the funds can only go to each forwarder's payout.
 */
export async function merchantSweep(
  db: Kysely<Database>,
  network: EvmNetworkConfig,
  merchantId: string,
  now: number,
): Promise<WalletSweep | null> {
  const forwarders = (await merchantUnswept(db, network, merchantId, now)).slice(0, WALLET_SWEEP_MAX);
  if (!network.forwarders || forwarders.length === 0) return null;
  return {
    chainId: network.chainId,
    to: network.forwarders.factory,
    data: flushManyData(forwarders.map((u) => sweepEntry(u, network))),
    forwarders,
  };
}
