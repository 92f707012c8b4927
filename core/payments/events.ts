import type { Kysely } from 'kysely';
import { iso } from '../clock.js';
import { uuid } from '../ids.js';
import { enqueueCustomerMail } from '../mail/customer-mails.js';
import { stringifyJson } from '../money/decimal.js';
import { notifyPaymentChange } from '../notifications/payment-notices.js';
import type { Database } from '../store/schema.js';
import { insertDeliveryForEvent } from '../webhooks/deliveries.js';
import { type Payment, paymentStateFields } from './payment.js';

export const SERVICE_SOURCE = 'crypto-payments-service';

/**
 * The `payment.updated` payload of API §6, plus `sequence`, `status_detail` and `updated_at`
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
      ...paymentStateFields(p),
      purchase_id: p.purchase_id,
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
    .values({
      id,
      payment_id: p.id,
      merchant_id: p.merchant_id,
      sequence: p.sequence,
      status: p.status,
      payload,
      created_at: now,
    })
    .execute();
  // Same transaction: the webhook delivery exists if and only if the change committed (outbox).
  await insertDeliveryForEvent(
    trx,
    { eventId: id, merchantId: p.merchant_id, paymentId: p.id, sequence: p.sequence, payload },
    now,
  );
  // And the customer's mail about it (receipt, underpaid, expired partly paid), under the same rule.
  await enqueueCustomerMail(trx, p, now);
  // And the members who chose to hear of it (finished, partly paid, paid late), under the same rule.
  await notifyPaymentChange(trx, p, now);
  return id;
}

/** Every recorded change of a payment, oldest first (the dashboard's timeline): sequence, status, time, payload. */
export function paymentEventsOf(db: Kysely<Database>, paymentId: string) {
  return db
    .selectFrom('payment_events')
    .select(['id', 'sequence', 'status', 'payload', 'created_at'])
    .where('payment_id', '=', paymentId)
    .orderBy('sequence')
    .execute();
}
