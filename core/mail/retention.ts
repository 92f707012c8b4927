import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * Deletes mails sent before `before`, with their attempts, in short batches like delivered webhooks
 * (core/webhooks/retention.ts). Pending and failed mails stay: the log keeps what never arrived.
 */
export async function pruneSentMail(db: Kysely<Database>, before: number, batchSize = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const ids = (
        await trx
          .selectFrom('mail_outbox')
          .select('id')
          .where('status', '=', 'sent')
          .where('sent_at', '<', before)
          .orderBy('sent_at')
          .limit(batchSize)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await trx.deleteFrom('mail_attempts').where('mail_id', 'in', ids).execute();
      await trx.deleteFrom('mail_outbox').where('id', 'in', ids).execute();
      return ids.length;
    });
    total += n;
    if (n < batchSize) return total;
  }
}
