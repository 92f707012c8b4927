import type { Kysely } from 'kysely';
import { noteDeliveryFailed, noteEndpointHealthy, noteEndpointSwitchedOff } from '../notifications/webhook-notices.js';
import { leaseDue, releaseLeases as releaseOutboxLeases } from '../outbox/leases.js';
import type { Database } from '../store/schema.js';
import type { Delivery } from './deliveries.js';

export type Claimed = Pick<Delivery, 'id' | 'merchant_id' | 'kind' | 'payload' | 'attempts' | 'schedule_step'>;
/** The merchant's endpoint as read when the lease was taken (secret included, so a rotation applies at once). */
export type Endpoint = { url: string | null; secret: string; mode: 'test' | 'live' };

/**
 * Leases due deliveries for `owner`. Candidates are read first and shared out so no endpoint takes more than its
 * `allowance`; then the outbox's conditional UPDATE (core/outbox/leases.ts) takes the lease of those still due.
 */
export async function claimDue(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  o: {
    owner: string;
    now: number;
    leaseMs: number;
    limit: number;
    allowance: (merchantId: string) => number;
    skipMerchants: string[];
  },
): Promise<{ claimed: Claimed[]; endpoints: Map<string, Endpoint> }> {
  let candidates = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('merchants as m', 'm.id', 'd.merchant_id')
    .select(['d.id', 'd.merchant_id', 'm.webhook_url', 'm.webhook_secret', 'm.mode'])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', o.now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', o.now)]))
    .where('m.webhook_enabled', '=', 1)
    .where('m.webhook_url', 'is not', null);
  if (o.skipMerchants.length > 0) candidates = candidates.where('d.merchant_id', 'not in', o.skipMerchants);
  const rows = await candidates
    .orderBy('d.next_attempt_at')
    .limit(Math.min(o.limit * 4, 200))
    .execute();
  const taken = new Map<string, number>();
  const ids: string[] = [];
  const endpoints = new Map<string, Endpoint>();
  for (const r of rows) {
    endpoints.set(r.merchant_id, { url: r.webhook_url, secret: r.webhook_secret, mode: r.mode });
    const n = taken.get(r.merchant_id) ?? 0;
    if (n >= o.allowance(r.merchant_id)) continue;
    taken.set(r.merchant_id, n + 1);
    ids.push(r.id);
    if (ids.length >= o.limit) break;
  }
  if (ids.length === 0) return { claimed: [], endpoints };
  const claimed = await leaseDue<Claimed>(db, dialect, 'webhook_deliveries', { ...o, ids }, [
    'id',
    'merchant_id',
    'kind',
    'payload',
    'attempts',
    'schedule_step',
  ]);
  return { claimed, endpoints };
}

/** Gives back leases of rows this process claimed but never sent (graceful stop), so others take them at once. */
export function releaseLeases(db: Kysely<Database>, owner: string, ids: string[]): Promise<void> {
  return releaseOutboxLeases(db, 'webhook_deliveries', owner, ids);
}

export type Outcome =
  | { kind: 'succeeded'; statusCode: number }
  | { kind: 'retry'; statusCode: number | null; error: string; nextAttemptAt: number; scheduleStep: number }
  | { kind: 'failed'; statusCode: number | null; error: string; scheduleStep: number }
  /** 410 Gone: the endpoint is disabled and the delivery held, due, until the merchant re-enables it. */
  | { kind: 'gone'; statusCode: 410; error: string };

export interface AttemptRecord {
  delivery: Claimed;
  url: string;
  startedAt: number;
  durationMs: number;
  responseExcerpt: string | null;
  outcome: Outcome;
}

/**
 * Records finished attempts and releases their leases, many in one transaction (one commit per batch is what
 * lets a single SQLite writer keep up). A row whose lease was lost (this process stalled past it) is not touched:
 * the new holder owns its state now; the attempt itself is still logged.
 */
export async function recordAttempts(
  db: Kysely<Database>,
  owner: string,
  now: number,
  records: AttemptRecord[],
): Promise<void> {
  if (records.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values(
        records.map((r) => ({
          delivery_id: r.delivery.id,
          attempt_no: r.delivery.attempts,
          url: r.url,
          started_at: r.startedAt,
          duration_ms: r.durationMs,
          status_code: r.outcome.statusCode,
          error: r.outcome.kind === 'succeeded' ? null : r.outcome.error,
          response_excerpt: r.responseExcerpt,
          next_attempt_at: r.outcome.kind === 'retry' ? r.outcome.nextAttemptAt : null,
        })),
      )
      .onConflict((oc) => oc.columns(['delivery_id', 'attempt_no']).doNothing())
      .execute();
    const ok = records.filter((r) => r.outcome.kind === 'succeeded');
    if (ok.length > 0) {
      await noteEndpointHealthy(
        trx,
        ok.map((r) => r.delivery.merchant_id),
      );
      // Grouped by status code so a batch of 200s is one statement.
      const byCode = new Map<number, string[]>();
      for (const r of ok)
        byCode.set(r.outcome.statusCode as number, [
          ...(byCode.get(r.outcome.statusCode as number) ?? []),
          r.delivery.id,
        ]);
      for (const [code, ids] of byCode) {
        await trx
          .updateTable('webhook_deliveries')
          .set({
            status: 'succeeded',
            next_attempt_at: null,
            lease_owner: null,
            lease_until: null,
            last_status_code: code,
            last_error: null,
            delivered_at: now,
            updated_at: now,
          })
          .where('id', 'in', ids)
          .where('lease_owner', '=', owner)
          .execute();
      }
    }
    for (const r of records) {
      const o = r.outcome;
      if (o.kind === 'succeeded') continue;
      // Every failed attempt releases the lease and records why; what differs is when (and whether) it goes again.
      const released = {
        lease_owner: null,
        lease_until: null,
        last_status_code: o.statusCode,
        last_error: o.error,
        updated_at: now,
      };
      const next =
        o.kind === 'retry'
          ? { next_attempt_at: o.nextAttemptAt, schedule_step: o.scheduleStep }
          : o.kind === 'failed'
            ? { status: 'failed' as const, next_attempt_at: null, schedule_step: o.scheduleStep }
            : { next_attempt_at: now }; // 410: held, due, until the endpoint is re-enabled
      await trx
        .updateTable('webhook_deliveries')
        .set({ ...released, ...next })
        .where('id', '=', r.delivery.id)
        .where('lease_owner', '=', owner)
        .execute();
      if (o.kind === 'gone') {
        await trx
          .updateTable('merchants')
          .set({ webhook_enabled: 0, updated_at: now })
          .where('id', '=', r.delivery.merchant_id)
          .execute();
        await noteEndpointSwitchedOff(trx, { merchantId: r.delivery.merchant_id, url: r.url }, now);
      } else if (o.kind === 'failed')
        await noteDeliveryFailed(trx, { merchantId: r.delivery.merchant_id, url: r.url, error: o.error }, now);
    }
  });
}

/**
 * When the next unleased delivery falls due (endpoint enabled), so an idle dispatcher can sleep until then.
 * Leased rows are left to the fallback poll: their holder releases them, or their lease runs out after a crash.
 */
export async function nextDueAt(db: Kysely<Database>): Promise<number | null> {
  const r = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('merchants as m', 'm.id', 'd.merchant_id')
    .select((eb) => eb.fn.min('d.next_attempt_at').as('due'))
    .where('d.status', '=', 'pending')
    .where('d.lease_until', 'is', null)
    .where('m.webhook_enabled', '=', 1)
    .executeTakeFirst();
  return r?.due === null || r?.due === undefined ? null : Number(r.due);
}
