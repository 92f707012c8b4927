/** Tables of refunds (migration 0021-refunds, core/refunds/). */

export type RefundStatus = 'awaiting_address' | 'ready' | 'sent' | 'confirmed' | 'cancelled';

/** Money going back to a customer, in the paid asset's base units; sent by the merchant's wallet, seen on chain. */
export interface RefundTable {
  id: string;
  payment_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  network: string;
  /** Catalog code of the paid asset: a refund returns what was paid. */
  asset: string;
  decimals: number;
  amount_units: string;
  status: RefundStatus;
  /** Grows with every change, like a payment's: a webhook receiver drops an event not above the last it applied. */
  sequence: number;
  /** The customer's address, canonical form (EIP-55 for EVM); null while awaiting it. */
  address: string | null;
  address_source: 'merchant' | 'customer' | null;
  /** When the merchant confirmed the address: from then on it never changes. */
  address_confirmed_at: number | null;
  /** SHA-256 of the claim link's token; null once used or when none was asked. */
  claim_token_hash: string | null;
  claim_expires_at: number | null;
  reason: string | null;
  /** The transfer that completed it (its exact amount reached `address`). */
  txid: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  confirmed_at: number | null;
  cancelled_at: number | null;
}

/** Per payment, the units held by its refunds that are not cancelled (the compare-and-set guard). */
export interface RefundTotalTable {
  payment_id: string;
  held_units: string;
  updated_at: number;
}

/** A transfer seen to an open refund's address; `exact` 1 when it carries the refund's exact amount. */
export interface RefundTransferTable {
  id: string;
  refund_id: string;
  chain: string;
  txid: string;
  log_index: number;
  asset: string;
  amount_units: string;
  exact: number;
  block_height: number | null;
  block_hash: string | null;
  removed: number;
  first_seen_at: number;
  updated_at: number;
}
