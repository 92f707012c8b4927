import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/** What a member can be told about, in the order the dashboard lists them. */
export const notifyEvents = [
  'payment_finished',
  'payment_partially_paid',
  'payment_paid_late',
  'webhook_failing',
  'relayer',
  'prices_stale',
] as const;
export type NotifyEvent = (typeof notifyEvents)[number];

export const notifyDeliveries = ['immediate', 'digest'] as const;
export type NotifyDelivery = (typeof notifyDeliveries)[number];

/** One member's choices; a member who never chose has none (nothing is mailed until they opt in). */
export interface NotifyPrefs {
  events: NotifyEvent[];
  delivery: NotifyDelivery;
}

export const defaultNotifyPrefs: NotifyPrefs = { events: [], delivery: 'immediate' };

function parseEvents(json: string): NotifyEvent[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? notifyEvents.filter((e) => list.includes(e)) : [];
  } catch {
    return [];
  }
}

export async function getNotifyPrefs(db: Kysely<Database>, userId: string, merchantId: string): Promise<NotifyPrefs> {
  const r = await db
    .selectFrom('member_notification_prefs')
    .select(['events', 'delivery'])
    .where('user_id', '=', userId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return r ? { events: parseEvents(r.events), delivery: r.delivery } : defaultNotifyPrefs;
}

export async function saveNotifyPrefs(
  db: Kysely<Database>,
  userId: string,
  merchantId: string,
  p: NotifyPrefs,
  now: number,
): Promise<void> {
  const row = {
    events: JSON.stringify(notifyEvents.filter((e) => p.events.includes(e))),
    delivery: p.delivery,
    updated_at: now,
  };
  await db
    .insertInto('member_notification_prefs')
    .values({ user_id: userId, merchant_id: merchantId, ...row })
    .onConflict((oc) => oc.columns(['user_id', 'merchant_id']).doUpdateSet(row))
    .execute();
}

/** A current, active member of a merchant who chose `event`, with their address and how they want it. */
export interface Subscriber {
  userId: string;
  merchantId: string;
  email: string;
  merchantName: string;
  delivery: NotifyDelivery;
}

/**
 * The members of these merchants (or of every merchant in `mode`) who chose `event`. A removed member or a
 * deactivated user is no longer asked, whatever their row says.
 */
export async function subscribersOf(
  db: Kysely<Database>,
  event: NotifyEvent,
  scope: { merchantIds: readonly string[] } | { mode: 'live' | 'test' },
): Promise<Subscriber[]> {
  if ('merchantIds' in scope && scope.merchantIds.length === 0) return [];
  let q = db
    .selectFrom('member_notification_prefs as p')
    .innerJoin('dashboard_memberships as m', (j) =>
      j.onRef('m.user_id', '=', 'p.user_id').onRef('m.merchant_id', '=', 'p.merchant_id'),
    )
    .innerJoin('dashboard_users as u', 'u.id', 'p.user_id')
    .innerJoin('merchants as mc', 'mc.id', 'p.merchant_id')
    .select(['p.user_id', 'p.merchant_id', 'p.events', 'p.delivery', 'u.email', 'mc.name'])
    .where('u.active', '=', 1)
    // A cashier sees the point of sale only, never the merchant's payments, webhooks or relayer.
    .where('m.role', '!=', 'cashier');
  q = 'merchantIds' in scope ? q.where('p.merchant_id', 'in', scope.merchantIds) : q.where('mc.mode', '=', scope.mode);
  const rows = await q.orderBy('p.user_id').orderBy('p.merchant_id').execute();
  return rows
    .filter((r) => parseEvents(r.events).includes(event))
    .map((r) => ({
      userId: r.user_id,
      merchantId: r.merchant_id,
      email: r.email,
      merchantName: r.name,
      delivery: r.delivery,
    }));
}
