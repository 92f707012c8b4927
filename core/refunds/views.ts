import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { explorerOf, type Refund, type RefundView, refundView } from './refund.js';
import { transfersOfRefunds } from './store.js';

type Chains = Parameters<typeof explorerOf>[0];

/** Views of refunds with the transfers seen to them, read in one query (a payment's list, one refund, a webhook). */
export async function refundViews(
  db: Kysely<Database>,
  chains: Chains,
  refunds: readonly Refund[],
): Promise<RefundView[]> {
  const transfers = await transfersOfRefunds(
    db,
    refunds.map((r) => r.id),
  );
  return refunds.map((r) =>
    refundView(
      r,
      transfers.filter((t) => t.refund_id === r.id),
      explorerOf(chains, r),
    ),
  );
}
