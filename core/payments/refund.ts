import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { recountShares } from './balance-totals.js';
import type { PaymentChanges } from './changes.js';
import type { Payment } from './payment.js';
import { writeChange } from './recompute.js';
import { lockPayment } from './store.js';

/**
 * Marks a payment refunded (docs/architecture.md: finished or partially_paid -> refunded, by the merchant only). The service
 * never moves funds: this records that the merchant returned them, and tells the webhook receiver. With `changes`
 * (the running service's bus) the change is published once committed; the admin CLI runs without one.
 */
export async function markRefunded(
  db: Kysely<Database>,
  clock: Clock,
  paymentId: string,
  merchantId?: string,
  changes?: PaymentChanges,
): Promise<Payment> {
  const refunded = await inTransaction(db, async (trx) => {
    const p = await lockPayment(trx, paymentId);
    // Another merchant's payment reads exactly like a missing one.
    if (!p || (merchantId !== undefined && p.merchant_id !== merchantId))
      throw new AppError('NOT_FOUND', 'Payment not found');
    if (p.status !== 'finished' && p.status !== 'partially_paid') {
      throw new AppError(
        'BAD_REQUEST',
        `Only finished or partially_paid payments can be marked refunded (this one is ${p.status})`,
      );
    }
    const now = clock.now();
    const payment = await writeChange(
      trx,
      p,
      {
        status: 'refunded',
        status_detail: p.status_detail as Payment['status_detail'],
        actually_paid_units: p.actually_paid_units,
        confirmed_at: p.confirmed_at,
      },
      now,
    );
    // A refunded payment's deposits count no more (but late ones do): its share of the balance, same transaction.
    await recountShares(trx, payment, now);
    return payment;
  });
  changes?.publish([{ kind: 'state', payment: refunded }]);
  return refunded;
}
