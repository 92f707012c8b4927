import type { Kysely } from 'kysely';
import { newestFirstPage } from '../store/cursor.js';
import type { Database } from '../store/schema.js';
import type { MailStatus } from '../store/schema-mail.js';
import type { Mail, MailAttempt } from './outbox.js';

export const mailStatuses = ['pending', 'sent', 'failed'] as const satisfies readonly MailStatus[];

/** A merchant's mails, newest first in keyset pages, each with its attempts (oldest first): the mail log. */
export async function listMails(
  db: Kysely<Database>,
  merchantId: string,
  f: { status?: MailStatus | undefined; limit: number; cursor?: string | undefined },
): Promise<{ mails: (Mail & { attempt_log: MailAttempt[] })[]; nextCursor: string | null }> {
  let q = db.selectFrom('mail_outbox').selectAll().where('merchant_id', '=', merchantId);
  if (f.status) q = q.where('status', '=', f.status);
  const { rows, nextCursor } = await newestFirstPage(q, f.cursor, f.limit);
  const attempts =
    rows.length === 0
      ? []
      : await db
          .selectFrom('mail_attempts')
          .selectAll()
          .where(
            'mail_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('attempt_no')
          .execute();
  const by = new Map<string, MailAttempt[]>();
  for (const a of attempts) by.set(a.mail_id, [...(by.get(a.mail_id) ?? []), a]);
  return { mails: rows.map((m) => ({ ...m, attempt_log: by.get(m.id) ?? [] })), nextCursor };
}

export async function getMail(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
): Promise<(Mail & { attempt_log: MailAttempt[] }) | undefined> {
  const m = await db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!m) return undefined;
  const attempt_log = await db
    .selectFrom('mail_attempts')
    .selectAll()
    .where('mail_id', '=', id)
    .orderBy('attempt_no')
    .execute();
  return { ...m, attempt_log };
}
