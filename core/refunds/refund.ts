import type { Selectable } from 'kysely';
import { iso, isoOrNull } from '../clock.js';
import { Decimal, fromUnits } from '../money/decimal.js';
import type { RefundStatus, RefundTable, RefundTransferTable } from '../store/schema-refunds.js';

export type Refund = Selectable<RefundTable>;
export type RefundTransfer = Selectable<RefundTransferTable>;

/** The closed set of refund statuses, in lifecycle order. */
export const refundStatuses = [
  'awaiting_address',
  'ready',
  'sent',
  'confirmed',
  'cancelled',
] as const satisfies readonly RefundStatus[];

/** Statuses in which a refund still holds part of what was received and can still be sent or cancelled. */
export const openRefundStatuses: readonly RefundStatus[] = ['awaiting_address', 'ready'];

/**
 * A refund as merchants see it: the API read, the list, the `refund.updated` webhook and the dashboard share it, so
 * a receiver and a reconciling read never disagree on a field. Amounts are exact (`amount_units` the base units).
 * `explorer` is the chain's public explorer base, when the network has one.
 */
export function refundView(r: Refund, transfers: readonly RefundTransfer[], explorer: string | null) {
  return {
    refund_id: r.id,
    payment_id: r.payment_id,
    refund_status: r.status,
    sequence: r.sequence,
    amount: new Decimal(fromUnits(BigInt(r.amount_units), r.decimals)),
    amount_units: r.amount_units,
    currency: r.asset,
    network: r.network,
    address: r.address,
    address_source: r.address_source,
    address_confirmed: r.address_confirmed_at !== null,
    // A claim link still waiting for the customer's address (its token is never shown again after its creation).
    claim_link_expires_at:
      r.status === 'awaiting_address' && r.address === null && r.claim_token_hash !== null
        ? isoOrNull(r.claim_expires_at)
        : null,
    reason: r.reason,
    txid: r.txid,
    explorer_url: r.txid && explorer ? `${explorer.replace(/\/$/, '')}/tx/${r.txid}` : null,
    // Transfers to the address of another amount: recorded so the merchant sees them, they complete nothing.
    other_transfers: transfers
      .filter((t) => t.exact === 0 && t.removed === 0)
      .map((t) => ({
        txid: t.txid,
        amount: new Decimal(fromUnits(BigInt(t.amount_units), r.decimals)),
        amount_units: t.amount_units,
        confirmed: t.block_height !== null,
      })),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    sent_at: isoOrNull(r.sent_at),
    confirmed_at: isoOrNull(r.confirmed_at),
    cancelled_at: isoOrNull(r.cancelled_at),
  };
}

export type RefundView = ReturnType<typeof refundView>;

/** The public explorer base of a refund's chain (live EVM, Bitcoin-family or Monero source), or null. */
export function explorerOf(
  chains: { get(key: string): { explorerUrl?: string | null } | undefined },
  r: Pick<Refund, 'mode' | 'network'>,
): string | null {
  return chains.get(`${r.mode === 'test' ? 'sandbox' : 'live'}:${r.network}`)?.explorerUrl ?? null;
}
