import type { Kysely } from 'kysely';
import type { ChainView } from '../chains/types.js';
import type { Database } from '../store/schema.js';
import type { Payment } from './payment.js';
import { recomputePayment, writeChange } from './recompute.js';

/**
 * Expires a payment its customer left for another one (another asset in the same checkout, or the same order opened
 * again), in the caller's transaction, so one order never shows two waiting payments. Only a payment with nothing
 * seen is expired: it is first brought up to date with its deposits (recomputePayment), and one with money on the
 * way is returned as it is for the caller to judge. Its `valid_until` is kept: a deposit first seen before it still
 * re-opens the payment and counts in full, one seen after is recorded as paid_late (core/payments/lifecycle.ts), so
 * an address the customer already paid is never lost. Returns the payment as it now is and whether it changed (for
 * the caller to publish after commit); undefined when there is no such payment.
 */
export async function expireAbandoned(
  trx: Kysely<Database>,
  paymentId: string,
  now: number,
  chains: ChainView,
): Promise<{ payment: Payment; changed: boolean } | undefined> {
  const current = await recomputePayment(trx, paymentId, now, chains);
  if (current?.payment.status !== 'waiting' || current.payment.actually_paid_units !== '0') return current;
  const p = current.payment;
  const payment = await writeChange(
    trx,
    p,
    { status: 'expired', status_detail: 'none', actually_paid_units: '0', confirmed_at: p.confirmed_at },
    now,
  );
  return { payment, changed: true };
}
