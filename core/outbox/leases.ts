import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * The leased outboxes: webhook deliveries and mails. Each keeps its own table and what a finished attempt writes;
 * leasing, handing back, the backlog and pruning what was delivered are the same on both, so they live here once
 * (the scheme of graphile-worker: everything that matters is in the row, a lease is an owner and an expiry).
 */
export type OutboxTable = 'webhook_deliveries' | 'mail_outbox';

/**
 * Both tables carry the lease columns (status 'pending', next_attempt_at, lease_owner, lease_until, attempts,
 * created_at); queries over either are typed through one of them, which names every column used here.
 */
type Leased = 'mail_outbox';
const leased = (table: OutboxTable) => table as Leased;

/**
 * Leases due rows of `table` for `owner`: one conditional UPDATE re-checks due-ness, so of several processes racing
 * for a row exactly one gets it. PostgreSQL adds FOR UPDATE SKIP LOCKED so racers skip instead of waiting; SQLite
 * has a single writer, so its UPDATE is already atomic across processes. Taking the lease bumps `attempts`: that
 * number names the attempt, and only the lease holder may record it. `ids` narrows the rows to those candidates
 * (webhooks share them out per endpoint first); without it the `limit` oldest due rows are taken.
 */
export async function leaseDue<Row>(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  table: OutboxTable,
  o: { owner: string; now: number; leaseMs: number; limit: number; ids?: string[] },
  returning: readonly string[] | 'all',
): Promise<Row[]> {
  const t = leased(table);
  const update = db
    .updateTable(t)
    .set({ lease_owner: o.owner, lease_until: o.now + o.leaseMs, attempts: sql`attempts + 1` })
    .where('id', 'in', (eb) => {
      let q: SelectQueryBuilder<Database, Leased, { id: string }> = eb
        .selectFrom(t)
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', o.now)
        .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', o.now)]));
      q = o.ids ? q.where('id', 'in', o.ids) : q.orderBy('next_attempt_at').limit(o.limit);
      return dialect === 'postgres' ? q.forUpdate().skipLocked() : q;
    });
  const rows =
    returning === 'all'
      ? await update.returningAll().execute()
      : await update.returning(returning as unknown as 'id'[]).execute();
  return rows as Row[];
}

/** Gives back leases of rows this process claimed but never finished (a stop), uncounted, so others take them at once. */
export async function releaseLeases(db: Kysely<Database>, table: OutboxTable, owner: string, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .updateTable(leased(table))
    .set({ lease_owner: null, lease_until: null, attempts: sql`attempts - 1` })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Pending rows and when the oldest was written (the metrics' backlog gauges). */
export async function outboxBacklog(
  db: Kysely<Database>,
  table: OutboxTable,
): Promise<{ count: number; oldestCreatedAt: number | null }> {
  const row = await db
    .selectFrom(leased(table))
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | null>('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return {
    count: Number(row?.n ?? 0),
    oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
  };
}

/** What a finished row is in each outbox, and where its attempts are kept. */
const DONE = {
  webhook_deliveries: { status: 'succeeded', at: 'delivered_at', attempts: 'webhook_attempts', ref: 'delivery_id' },
  mail_outbox: { status: 'sent', at: 'sent_at', attempts: 'mail_attempts', ref: 'mail_id' },
} as const;

/**
 * Deletes rows of `table` finished before `before`, with their attempts, in batches of `batchSize`, one short
 * transaction per batch so the writer is never held for long (SQLite has one); `pauseMs` between batches lets other
 * writers in. Pending and failed rows stay: the log keeps what never arrived. Returns how many rows went.
 */
export async function pruneFinished(
  db: Kysely<Database>,
  table: OutboxTable,
  before: number,
  opts: { batchSize?: number; pauseMs?: number } = {},
): Promise<number> {
  const batchSize = opts.batchSize ?? 500;
  const done = DONE[table];
  let total = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const ids = (
        await trx
          .selectFrom(leased(table))
          .select('id')
          .where('status', '=', done.status as 'sent')
          .where(done.at as 'sent_at', '<', before)
          .orderBy(done.at as 'sent_at')
          .limit(batchSize)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await trx
        .deleteFrom(done.attempts as 'mail_attempts')
        .where(done.ref as 'mail_id', 'in', ids)
        .execute();
      await trx.deleteFrom(leased(table)).where('id', 'in', ids).execute();
      return ids.length;
    });
    total += n;
    if (n < batchSize) return total;
    if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
  }
}
