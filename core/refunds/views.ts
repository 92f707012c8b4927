import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.js';
import type { Database } from '../store/schema.js';
import { explorerOf, type Refund, refundView } from './refund.js';
import { refundSendInstructions } from './send-instructions.js';
import { transfersOfRefunds } from './store.js';

type Chains = Parameters<typeof explorerOf>[0];

/**
 * Views of refunds as the APIs read them: the webhook's view plus `send`, what the merchant's wallet must send (the
 * exact URI and, on EVM, the transaction). The transfers seen to them are read in one query.
 */
export async function refundViews(db: Kysely<Database>, chains: Chains, catalog: Catalog, refunds: readonly Refund[]) {
  const transfers = await transfersOfRefunds(
    db,
    refunds.map((r) => r.id),
  );
  return refunds.map((r) => ({
    ...refundView(
      r,
      transfers.filter((t) => t.refund_id === r.id),
      explorerOf(chains, r),
    ),
    send: refundSendInstructions(catalog, r),
  }));
}
