import type { Kysely } from 'kysely';
import { enqueueMail } from '../mail/outbox.js';
import { renderMail } from '../mail/render.js';
import type { Database } from '../store/schema.js';
import { NOTICE_FOOTER } from './notify.js';

/** The last digest time at or before `now`: today at `hour` UTC, or yesterday's when that is still to come. */
export function lastDigestTime(now: number, hour: number): number {
  const d = new Date(now);
  const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour);
  return today <= now ? today : today - 86_400_000;
}

/**
 * Sends each member's daily digest of the events collected before the last digest time (`hour` UTC). A member's
 * digest of a day is claimed by inserting its (member, day) row first: with several processes on one PostgreSQL the
 * second insert waits for the first transaction and then finds the row, so one digest goes out. A service that was
 * down at the hour sends it at its next check. Returns how many digests were written.
 */
export async function sendDueDigests(db: Kysely<Database>, now: number, hour: number): Promise<number> {
  const cutoff = lastDigestTime(now, hour);
  const day = new Date(cutoff).toISOString().slice(0, 10);
  const due = await db
    .selectFrom('notification_digest_items')
    .select(['user_id', 'merchant_id'])
    .distinct()
    .where('digest_day', 'is', null)
    .where('created_at', '<', cutoff)
    .execute();
  let sent = 0;
  for (const member of due) {
    const wrote = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('notification_digests')
        .values({ ...member, day, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'merchant_id', 'day']).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
      const items = await trx
        .selectFrom('notification_digest_items')
        .select(['id', 'line', 'link'])
        .where('user_id', '=', member.user_id)
        .where('merchant_id', '=', member.merchant_id)
        .where('digest_day', 'is', null)
        .where('created_at', '<', cutoff)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const to = await trx
        .selectFrom('dashboard_users as u')
        .innerJoin('merchants as m', (j) => j.on('m.id', '=', member.merchant_id))
        .select(['u.email', 'm.name'])
        .where('u.id', '=', member.user_id)
        .where('u.active', '=', 1)
        .executeTakeFirst();
      if (items.length === 0) return false;
      await trx
        .updateTable('notification_digest_items')
        .set({ digest_day: day })
        .where(
          'id',
          'in',
          items.map((i) => i.id),
        )
        .execute();
      // A member removed or deactivated since: their items are done with, and nobody is mailed.
      if (!to) return false;
      const content = renderMail({
        subject: `[${to.name}] Daily digest for ${day}: ${items.length} ${items.length === 1 ? 'event' : 'events'}`,
        blocks: [
          { p: `What happened in ${to.name} up to ${day} ${String(hour).padStart(2, '0')}:00 UTC:` },
          {
            rows: items.map((i, n): [string, string, string?] =>
              i.link ? [`${n + 1}.`, i.line, i.link] : [`${n + 1}.`, i.line],
            ),
          },
        ],
        footer: NOTICE_FOOTER,
      });
      await enqueueMail(
        trx,
        {
          merchantId: member.merchant_id,
          kind: 'notify.digest',
          to: to.email,
          ...content,
          dedupeKey: `digest:${member.user_id}:${member.merchant_id}:${day}`,
        },
        now,
      );
      return true;
    });
    if (wrote) sent++;
  }
  return sent;
}
