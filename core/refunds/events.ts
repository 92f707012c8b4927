import type { Kysely } from 'kysely';
import { iso } from '../clock.js';
import { uuid } from '../ids.js';
import { stringifyJson } from '../money/decimal.js';
import { SERVICE_SOURCE } from '../payments/events.js';
import type { Database } from '../store/schema.js';
import { insertDeliveryForEvent } from '../webhooks/deliveries.js';
import { REFUND_EVENT_KIND } from '../webhooks/sign.js';
import type { Refund } from './refund.js';
import { refundView } from './refund.js';
import { transfersOfRefunds } from './store.js';

/**
 * Writes the `refund.updated` delivery of a refund's change, in the transaction that changed it (the outbox): signed,
 * leased and retried exactly like `payment.updated`, its payload built once and sent byte for byte on every attempt.
 */
export async function insertRefundEvent(
  trx: Kysely<Database>,
  r: Refund,
  explorer: string | null,
  now: number,
): Promise<void> {
  const eventId = uuid();
  const payload = stringifyJson({
    id: eventId,
    event: REFUND_EVENT_KIND,
    created_at: iso(now),
    source: SERVICE_SOURCE,
    merchant: { user_id: r.merchant_id },
    refund: refundView(r, await transfersOfRefunds(trx, [r.id]), explorer),
  });
  await insertDeliveryForEvent(
    trx,
    { eventId, merchantId: r.merchant_id, paymentId: r.payment_id, sequence: r.sequence, payload, kind: 'refund' },
    now,
  );
}
