import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { AppError, err, ok, type Result } from '../errors.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { writeRefundChange } from './change-refund.js';
import { openRefundStatuses, type Refund } from './refund.js';
import { compareAndSetHeld, findMerchantRefund, heldUnits } from './store.js';

/**
 * Cancels a refund not yet sent: what it held can be refunded again. A refund seen on chain cannot be cancelled (the
 * money has moved). Runs in the caller's transaction when there is one (a dashboard change and its audit entry).
 */
export async function cancelRefund(
  db: Kysely<Database>,
  clock: Clock,
  explorer: (r: Refund) => string | null,
  merchantId: string,
  refundId: string,
): Promise<Result<Refund>> {
  return inTransaction(db, async (trx) => {
    const r = await findMerchantRefund(trx, merchantId, refundId);
    if (!r) return err(new AppError('NOT_FOUND', 'Refund not found'));
    if (!openRefundStatuses.includes(r.status))
      return err(new AppError('BAD_REQUEST', `Only a refund not yet sent can be cancelled (this one is ${r.status})`));
    const now = clock.now();
    // The held total moves in the refund's own transaction; the refund's sequence check below guards the refund.
    for (;;) {
      const held = await heldUnits(trx, r.payment_id, now);
      if (await compareAndSetHeld(trx, r.payment_id, held, held - BigInt(r.amount_units), now)) break;
    }
    return ok(await writeRefundChange(trx, r, { status: 'cancelled', cancelled_at: now }, explorer(r), now));
  });
}
