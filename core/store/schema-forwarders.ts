import type { Generated } from 'kysely';

/** Tables of EVM payouts, forwarders and their sweeps (core/forwarders). */

/** A live merchant's payout address per chain family (`evm`): where its payments' forwarders send funds. */
export interface MerchantPayoutTable {
  merchant_id: string;
  chain: string;
  address: string;
  created_at: number;
  updated_at: number;
}

/**
 * A payment's forwarder (core/forwarders): its address is CREATE2(factory, salt, clone of the implementation with
 * `payout` as immutable args). `swept_through`: deposits up to this block height are known to be flushed.
 */
export interface EvmForwarderTable {
  payment_id: string;
  merchant_id: string;
  network: string;
  address: string;
  factory: string;
  payout: string;
  salt: string;
  created_at: number;
  swept_through: number | null;
  sweep_tx: string | null;
  swept_at: number | null;
  pending_sweep_id: string | null;
  sweep_attempts: Generated<number>;
  next_sweep_at: number | null;
  sweep_error: string | null;
}

/** A relayer's flushMany transaction, stored signed before it is sent (re-sent as is after a restart). */
export interface EvmSweepTable {
  id: string;
  network: string;
  sender: string;
  nonce: number;
  tx_hash: string;
  raw_tx: string;
  forwarders: number;
  status: 'pending' | 'succeeded' | 'failed';
  gas_used: string | null;
  fee_wei: string | null;
  block_height: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}
