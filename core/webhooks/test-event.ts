import type { Kysely } from 'kysely';
import { iso } from '../clock.js';
import { AppError } from '../errors.js';
import { newId, uuid } from '../ids.js';
import { SERVICE_SOURCE } from '../payments/events.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { type Delivery, getDelivery, insertDeliveryForEvent } from './deliveries.js';

/**
 * Queues a test `payment.updated` to the merchant's endpoint: same headers, signature and payload shape as a
 * real event, with `test: true` and a made-up payment, so a receiver can be checked end to end before go-live.
 */
export async function sendTestEvent(db: Kysely<Database>, merchantId: string, now: number): Promise<Delivery> {
  const m = await db.selectFrom('merchants').select(['webhook_url']).where('id', '=', merchantId).executeTakeFirst();
  if (!m) throw new AppError('NOT_FOUND', `merchant ${merchantId} not found`);
  if (!m.webhook_url)
    throw new AppError(
      'BAD_REQUEST',
      'No webhook URL is configured for this merchant; set one first (admin CLI: merchant update --webhook-url)',
    );
  const eventId = uuid();
  const payload = JSON.stringify({
    id: eventId,
    event: 'payment.updated',
    created_at: iso(now),
    source: SERVICE_SOURCE,
    test: true,
    merchant: { user_id: merchantId },
    payment: {
      payment_id: newId('pay_test'),
      invoice_id: newId('inv_test'),
      purchase_id: newId('pur_test'),
      payment_status: 'finished',
      status_detail: 'none',
      sequence: 3,
      price_amount: 10,
      price_currency: 'USD',
      pay_amount: 0.00015,
      pay_currency: 'BTC',
      actually_paid: 0.00015,
      pay_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      extra_id: null,
      network: 'btc',
      order_id: 'test-order',
      confirmed_at: iso(now),
      updated_at: iso(now),
      customer: { name: 'Test Customer', email: 'test@example.com' },
    },
  });
  // The caller's transaction when it has one (the dashboard's change and its audit entry commit together).
  const id = await inTransaction(db, (trx) =>
    insertDeliveryForEvent(trx, { eventId, merchantId, paymentId: null, sequence: null, payload, kind: 'test' }, now),
  );
  const d = id ? await getDelivery(db, merchantId, id) : undefined;
  if (!d) throw new AppError('BAD_REQUEST', 'No webhook URL is configured for this merchant');
  return d;
}
