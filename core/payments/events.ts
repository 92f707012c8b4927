import type { Kysely } from 'kysely';
import { iso, isoOrNull } from '../clock.js';
import { uuid } from '../ids.js';
import { Decimal, stringifyJson } from '../money/decimal.js';
import type { Database } from '../store/schema.js';
import { insertDeliveryForEvent } from '../webhooks/deliveries.js';
import { actuallyPaidText, payAmountText, type Payment } from './payment.js';

export const SERVICE_SOURCE = 'crypto-payments-service';

/**
 * The `payment.updated` payload of spec section 6, plus `sequence`, `status_detail` and `updated_at`
 * so receivers can drop stale events. Built once, stored in the outbox, and sent byte for byte on every attempt.
 */
export function paymentUpdatedPayload(eventId: string, p: Payment, createdAt: number, merchantUserId: string | null) {
  return {
    id: eventId,
    event: 'payment.updated',
    created_at: iso(createdAt),
    source: SERVICE_SOURCE,
    merchant: { user_id: merchantUserId },
    payment: {
      payment_id: p.id,
      invoice_id: p.invoice_id,
      purchase_id: p.purchase_id,
      payment_status: p.status,
      status_detail: p.status_detail,
      sequence: p.sequence,
      price_amount: new Decimal(p.price_amount),
      price_currency: p.price_currency,
      pay_amount: new Decimal(payAmountText(p)),
      pay_currency: p.pay_currency,
      actually_paid: new Decimal(actuallyPaidText(p)),
      pay_address: p.pay_address,
      extra_id: p.extra_id,
      network: p.network,
      order_id: p.order_id,
      confirmed_at: isoOrNull(p.confirmed_at),
      updated_at: iso(p.updated_at),
      customer: { name: p.customer_name ?? '', email: p.customer_email },
    },
  };
}

/** Writes the outbox row for a payment change. Call inside the transaction that changed the payment. */
export async function insertPaymentEvent(trx: Kysely<Database>, p: Payment, now: number): Promise<string> {
  const id = uuid();
  const payload = stringifyJson(paymentUpdatedPayload(id, p, now, p.merchant_id));
  await trx
    .insertInto('payment_events')
    .values({ id, payment_id: p.id, merchant_id: p.merchant_id, sequence: p.sequence, status: p.status, payload, created_at: now })
    .execute();
  // Same transaction: the webhook delivery exists if and only if the change committed (outbox).
  await insertDeliveryForEvent(trx, { eventId: id, merchantId: p.merchant_id, paymentId: p.id, sequence: p.sequence, payload }, now);
  return id;
}
