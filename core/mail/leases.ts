import type { Kysely } from 'kysely';
import { leaseDue, outboxBacklog } from '../outbox/leases.js';
import type { Database } from '../store/schema.js';
import { withoutOneTimeLinks } from './account-mails.js';
import type { Mail } from './outbox.js';
import type { SendOutcome } from './transport.js';

/**
 * Leases up to `limit` due mails for `owner`, oldest due first (core/outbox/leases.ts, the webhook outbox's scheme
 * without per-endpoint lanes: there is one relay).
 */
export function claimDueMails(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  o: { owner: string; now: number; leaseMs: number; limit: number },
): Promise<Mail[]> {
  if (o.limit <= 0) return Promise.resolve([]);
  return leaseDue<Mail>(db, dialect, 'mail_outbox', o, 'all');
}

export interface MailAttemptRecord {
  mail: Mail;
  startedAt: number;
  durationMs: number;
  outcome: SendOutcome;
  /** When a retry goes; null makes a retry final (schedule exhausted). */
  nextAttemptAt: number | null;
}

/**
 * Records attempts and releases their leases in one transaction. A row whose lease was lost (this process stalled
 * past it and another took it) keeps the new holder's state; the attempt is still logged.
 */
export async function recordMailAttempts(
  db: Kysely<Database>,
  owner: string,
  now: number,
  records: MailAttemptRecord[],
): Promise<void> {
  if (records.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('mail_attempts')
      .values(
        records.map((r) => ({
          mail_id: r.mail.id,
          attempt_no: r.mail.attempts,
          started_at: r.startedAt,
          duration_ms: r.durationMs,
          code: r.outcome.code,
          response: r.outcome.response,
        })),
      )
      .onConflict((oc) => oc.columns(['mail_id', 'attempt_no']).doNothing())
      .execute();
    for (const r of records) {
      const o = r.outcome;
      const status = o.kind === 'sent' ? 'sent' : o.kind === 'retry' && r.nextAttemptAt !== null ? 'pending' : 'failed';
      await trx
        .updateTable('mail_outbox')
        .set({
          status,
          next_attempt_at: status === 'pending' ? r.nextAttemptAt : null,
          lease_owner: null,
          lease_until: null,
          last_code: o.code,
          last_response: o.response,
          updated_at: now,
          sent_at: status === 'sent' ? now : null,
          // Done with (sent, or failed for good): a one-time link it carried is no longer kept in clear.
          ...(status === 'pending'
            ? {}
            : {
                text_body: withoutOneTimeLinks(r.mail.text_body),
                html_body: r.mail.html_body === null ? null : withoutOneTimeLinks(r.mail.html_body),
              }),
        })
        .where('id', '=', r.mail.id)
        .where('lease_owner', '=', owner)
        .execute();
    }
  });
}

/** When the next unleased pending mail falls due, so an idle dispatcher knows whether to look again soon. */
export async function nextMailDueAt(db: Kysely<Database>): Promise<number | null> {
  const r = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.min('next_attempt_at').as('due'))
    .where('status', '=', 'pending')
    .where('lease_until', 'is', null)
    .executeTakeFirst();
  return r?.due === null || r?.due === undefined ? null : Number(r.due);
}

/** Pending mails and when the oldest was written (the metrics' backlog gauge). */
export function mailBacklog(db: Kysely<Database>): Promise<{ count: number; oldestCreatedAt: number | null }> {
  return outboxBacklog(db, 'mail_outbox');
}
