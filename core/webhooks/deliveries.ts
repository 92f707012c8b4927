import type { Kysely, Selectable } from 'kysely';
import { newId } from '../ids.js';
import { noteEndpointSwitchedOn } from '../notifications/webhook-notices.js';
import { outboxBacklog } from '../outbox/leases.js';
import { newestFirstPage } from '../store/cursor.js';
import type { Database, WebhookAttemptTable, WebhookDeliveryTable } from '../store/schema.js';

export type Delivery = Selectable<WebhookDeliveryTable>;
export type Attempt = Selectable<WebhookAttemptTable>;
export type DeliveryStatus = Delivery['status'];
export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const satisfies readonly DeliveryStatus[];

/**
 * Writes the delivery row of an event for the merchant's endpoint, in the caller's transaction (the outbox).
 * No row when the merchant has no webhook URL. A row written while the endpoint is disabled (410) waits, due,
 * until the merchant re-enables it: events of that window are held, not lost.
 */
export async function insertDeliveryForEvent(
  trx: Kysely<Database>,
  e: {
    eventId: string;
    merchantId: string;
    paymentId: string | null;
    sequence: number | null;
    payload: string;
    kind?: Delivery['kind'];
  },
  now: number,
): Promise<string | null> {
  const m = await trx.selectFrom('merchants').select('webhook_url').where('id', '=', e.merchantId).executeTakeFirst();
  if (!m?.webhook_url) return null;
  const id = newId('dlv');
  await trx
    .insertInto('webhook_deliveries')
    .values({
      id,
      event_id: e.eventId,
      merchant_id: e.merchantId,
      payment_id: e.paymentId,
      sequence: e.sequence,
      kind: e.kind ?? 'payment',
      payload: e.payload,
      status: 'pending',
      attempts: 0,
      schedule_step: 0,
      next_attempt_at: now,
      lease_owner: null,
      lease_until: null,
      last_status_code: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      delivered_at: null,
    })
    .execute();
  return id;
}

export async function getDelivery(db: Kysely<Database>, merchantId: string, id: string): Promise<Delivery | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}

export interface DeliveryPage {
  deliveries: (Delivery & { attempt_log: Attempt[] })[];
  nextCursor: string | null;
}

/** Newest first, keyset pages (core/store/cursor.ts); each delivery with its attempts, oldest attempt first. */
export async function listDeliveries(
  db: Kysely<Database>,
  merchantId: string,
  f: {
    paymentId?: string | undefined;
    status?: DeliveryStatus | undefined;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<DeliveryPage> {
  let q = db.selectFrom('webhook_deliveries').selectAll().where('merchant_id', '=', merchantId);
  if (f.paymentId) q = q.where('payment_id', '=', f.paymentId);
  if (f.status) q = q.where('status', '=', f.status);
  const { rows: page, nextCursor } = await newestFirstPage(q, f.cursor, f.limit);
  const attempts =
    page.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            page.map((d) => d.id),
          )
          .orderBy('attempt_no')
          .execute();
  const byDelivery = new Map<string, Attempt[]>();
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  return { deliveries: page.map((d) => ({ ...d, attempt_log: byDelivery.get(d.id) ?? [] })), nextCursor };
}

/** Every attempt of one delivery, oldest first. */
/** The merchant a delivery belongs to, or undefined when there is no such delivery (the admin CLI's look-up). */
export async function merchantOfDelivery(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('webhook_deliveries').select('merchant_id').where('id', '=', id).executeTakeFirst();
  return row?.merchant_id;
}

export function attemptsOf(db: Kysely<Database>, deliveryId: string): Promise<Attempt[]> {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt_no')
    .execute();
}

/**
 * Sends a delivery again, with the same delivery id, on a fresh schedule starting now. A delivery being sent right
 * now keeps its lease; it goes again once that attempt is recorded.
 */
export async function redeliver(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
  now: number,
): Promise<Delivery | undefined> {
  const res = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, schedule_step: 0, updated_at: now })
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return undefined;
  return getDelivery(db, merchantId, id);
}

/**
 * Sends again every failed delivery of the merchant created in [from, to), each on a fresh schedule starting now
 * (as redeliver, same delivery ids). Returns how many were queued.
 */
export async function redeliverFailed(
  db: Kysely<Database>,
  merchantId: string,
  range: { from: number; to: number },
  now: number,
): Promise<number> {
  const res = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, schedule_step: 0, updated_at: now })
    .where('merchant_id', '=', merchantId)
    .where('status', '=', 'failed')
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.to)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Re-enables an endpoint disabled by a 410; its held deliveries go out at once. */
export async function enableEndpoint(db: Kysely<Database>, merchantId: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('merchants')
    .set({ webhook_enabled: 1, updated_at: now })
    .where('id', '=', merchantId)
    .executeTakeFirst();
  // Switched on again: a later switch-off is told again.
  await noteEndpointSwitchedOn(db, merchantId);
  return Number(res.numUpdatedRows) > 0;
}

/**
 * The outbox backlog: pending deliveries and when the oldest was created (null when none). Read by the metrics at
 * each scrape; it reads only pending rows, through their partial index (migration 0007).
 */
export function pendingBacklog(db: Kysely<Database>): Promise<{ count: number; oldestCreatedAt: number | null }> {
  return outboxBacklog(db, 'webhook_deliveries');
}
