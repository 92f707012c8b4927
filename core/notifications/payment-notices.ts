import type { Kysely } from 'kysely';
import { fromUnits } from '../money/decimal.js';
import type { Payment } from '../payments/payment.js';
import type { Database } from '../store/schema.js';
import { notify } from './notify.js';
import type { NotifyEvent } from './prefs.js';

/**
 * Tells the merchant's members who chose it that a payment finished, was partly paid or was paid late. Called with
 * every payment change, in its transaction (core/payments/events.ts); each occurrence is told once per member: a
 * finish once per payment, a partial or late payment once per amount received.
 */
export async function notifyPaymentChange(trx: Kysely<Database>, p: Payment, now: number): Promise<void> {
  const event: NotifyEvent | null =
    p.status_detail === 'paid_late'
      ? 'payment_paid_late'
      : p.status === 'finished'
        ? 'payment_finished'
        : p.status === 'partially_paid'
          ? 'payment_partially_paid'
          : null;
  if (!event) return;
  const asset = p.pay_currency.toUpperCase();
  const amount = (units: string) => `${fromUnits(BigInt(units), p.decimals)} ${asset}`;
  const paid = amount(p.actually_paid_units);
  const due = amount(p.pay_amount_units);
  const title =
    event === 'payment_finished'
      ? `Payment ${p.id} finished: ${paid}`
      : event === 'payment_partially_paid'
        ? `Payment ${p.id} partially paid: ${paid} of ${due}`
        : `Payment ${p.id} paid late: ${paid} of ${due}`;
  const text =
    event === 'payment_finished'
      ? ['A payment finished: the amount due was received and confirmed.']
      : event === 'payment_partially_paid'
        ? ['A payment was partially paid: less than the amount due was received so far.']
        : [
            'A payment was paid after its time ran out. The late amount is recorded; decide whether to deliver or refund.',
          ];
  const rows: [string, string][] = [['Payment', p.id]];
  if (p.order_id) rows.push(['Order', p.order_id]);
  rows.push(['Amount due', due], ['Received', paid], ['Status', p.status]);
  await notify(
    trx,
    {
      event,
      key: event === 'payment_finished' ? `${event}:${p.id}` : `${event}:${p.id}:${p.actually_paid_units}`,
      scope: { merchantIds: [p.merchant_id] },
      title,
      text,
      rows,
      page: (m) => `/dashboard/m/${m}/payments/${p.id}`,
    },
    now,
  );
}
