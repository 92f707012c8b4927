import type { Kysely } from 'kysely';
import type { ChainView } from '../chains/types.js';
import type { Clock } from '../clock.js';
import { AppError, notFound } from '../errors.js';
import type { Database } from '../store/schema.js';
import { setException } from './exceptions-store.js';
import type { Payment } from './payment.js';
import { recomputePayment } from './recompute.js';
import { lockPayment } from './store.js';

/** Statuses a merchant may accept as paid when something was received: short, or paid after the window closed. */
const ACCEPTABLE = new Set(['partially_paid', 'expired', 'failed']);

/**
 * "Accept as paid" (issue 30 item 5): the merchant takes a partly or late paid payment as settled. Recorded on the
 * payment's exception row, so the lifecycle (lifecycle.ts) derives `finished` now and on every later recompute; the
 * change goes through recomputePayment like any other (sequence bump, payment.updated webhook, customer receipt) in
 * the caller's transaction, where the caller also writes the audit entry.
 */
export async function acceptAsPaid(
  trx: Kysely<Database>,
  clock: Clock,
  chains: ChainView,
  merchantId: string,
  paymentId: string,
): Promise<Payment> {
  const p = await lockPayment(trx, paymentId);
  if (!p || p.merchant_id !== merchantId) throw notFound('Payment');
  const paid = BigInt(p.actually_paid_units);
  if (!ACCEPTABLE.has(p.status) || paid === 0n)
    throw new AppError(
      'BAD_REQUEST',
      `Only a partially paid or late payment with something received can be accepted as paid (this one is ${p.status}, ${p.actually_paid_units} units received)`,
    );
  const now = clock.now();
  await setException(trx, p.id, { accepted_at: now });
  const r = await recomputePayment(trx, p.id, now, chains);
  if (!r?.changed) throw new Error(`payment ${p.id} did not finish on acceptance`);
  return r.payment;
}
