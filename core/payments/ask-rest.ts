import type { Kysely } from 'kysely';
import type { ChainView } from '../chains/types.js';
import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import { AppError, invalid, notFound } from '../errors.js';
import { enqueueRestMail } from '../mail/rest-mail.js';
import type { Database } from '../store/schema.js';
import { insertPaymentEvent } from './events.js';
import { setException, unflagLateDeposits } from './exceptions-store.js';
import type { Payment } from './payment.js';
import { recomputePayment } from './recompute.js';
import { lockPayment, writePaymentDeadline } from './store.js';

/** The furthest a merchant may push a payment's deadline, from now: a month keeps the address watched, not forever. */
export const MAX_REST_DAYS = 30;
const DAY = 86_400_000;

/**
 * "Ask for the rest" (issue 30 item 5): a partially paid payment stays payable on the same address until `deadline`.
 * Its `expires_at` becomes the deadline and `valid_until` the deadline plus the usual grace, so the hosted page and
 * the drop-in keep showing the exact remainder and the watcher counts a deposit up to then as on time (those already
 * seen by then count again). One visible change (sequence bump, payment.updated webhook) and the customer's mail
 * naming the remainder and the deadline, in the caller's transaction; a remainder paid in time then finishes it.
 */
export async function askForRest(
  trx: Kysely<Database>,
  deps: { clock: Clock; chains: ChainView; graceSeconds: number },
  merchantId: string,
  paymentId: string,
  deadline: number,
): Promise<Payment> {
  const now = deps.clock.now();
  const p = await lockPayment(trx, paymentId);
  if (!p || p.merchant_id !== merchantId) throw notFound('Payment');
  const due = BigInt(p.pay_amount_units) - BigInt(p.actually_paid_units);
  if (p.status !== 'partially_paid' || due <= 0n)
    throw new AppError(
      'BAD_REQUEST',
      `Only a partially paid payment with an amount still due can be asked for the rest (this one is ${p.status})`,
    );
  const latest = now + MAX_REST_DAYS * DAY;
  if (deadline <= now || deadline > latest)
    throw invalid('deadline', `Must be after now and at most ${MAX_REST_DAYS} days ahead (by ${iso(latest)})`);
  if (deadline <= p.expires_at)
    throw invalid('deadline', `Must be after the payment's current expiry (${iso(p.expires_at)})`);
  const validUntil = deadline + deps.graceSeconds * 1000;
  const moved = await writePaymentDeadline(trx, p, deadline, validUntil, now);
  if (!moved) throw new Error(`payment ${p.id} changed concurrently`);
  await setException(trx, p.id, { rest_until: deadline });
  await insertPaymentEvent(trx, moved, now);
  await enqueueRestMail(trx, moved, now);
  await unflagLateDeposits(trx, p.id, validUntil, now);
  // A remainder already seen in the extended window finishes it now.
  const r = await recomputePayment(trx, p.id, now, deps.chains);
  return r?.payment ?? moved;
}
