import type { Kysely, Selectable } from 'kysely';
import { newId } from '../ids.js';
import type { Database } from '../store/schema.js';
import type { MailAttemptTable, MailOutboxTable } from '../store/schema-mail.js';

export type Mail = Selectable<MailOutboxTable>;
export type MailAttempt = Selectable<MailAttemptTable>;

/** What a caller asks to send; bodies are final text (core/mail/render.ts builds them with everything escaped). */
export interface MailInput {
  /** The merchant the mail is about: its owners see it in the mail log. Null for a service-wide mail. */
  merchantId: string | null;
  /** What the mail is, e.g. `receipt`, `password_reset` (the log shows it; rate limits count by it). */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /**
   * Sent in the merchant's name (its sender name, default the merchant's name, and reply-to): customer mails.
   * Mails to dashboard users come from the service itself.
   */
  asMerchant?: boolean;
  /** At most one mail ever per key (a payment's receipt): a second enqueue with it writes nothing. */
  dedupeKey?: string;
}

/** A plain address: no display name, no CR/LF, no angle brackets, so it can never carry a header of its own. */
const addressPattern = /^[^\s<>()",;:\\@\p{Cc}]+@[^\s<>()",;:\\@\p{Cc}]+\.[^\s<>()",;:\\@\p{Cc}]+$/u;

export function isMailAddress(s: string): boolean {
  return s.length <= 254 && addressPattern.test(s);
}

/** One line for a header: control characters (CR, LF, NUL, TAB...) become spaces, so nothing typed adds a header. */
export function headerText(s: string, max = 200): string {
  return s
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

/**
 * Writes a mail to the outbox inside the caller's transaction, so it exists if and only if the change that causes
 * it commits (the webhook outbox's rule). Delivered by core/mail/dispatcher.ts; with no SMTP relay configured it
 * stays in the outbox, where owners read it in the dashboard. Returns the mail's id, or null when nothing was
 * written: a recipient that is no plain address, or a `dedupeKey` already used.
 */
export async function enqueueMail(trx: Kysely<Database>, m: MailInput, now: number): Promise<string | null> {
  const to = m.to.trim().toLowerCase();
  if (!isMailAddress(to)) return null;
  let fromName: string | null = null;
  let replyTo: string | null = null;
  if (m.asMerchant && m.merchantId) {
    const s = await trx
      .selectFrom('merchants as m')
      .leftJoin('merchant_mail_settings as s', 's.merchant_id', 'm.id')
      .select(['m.name', 's.sender_name', 's.reply_to'])
      .where('m.id', '=', m.merchantId)
      .executeTakeFirst();
    fromName = s ? headerText(s.sender_name ?? s.name, 100) || null : null;
    replyTo = s?.reply_to && isMailAddress(s.reply_to) ? s.reply_to : null;
  }
  const id = newId('mail');
  const res = await trx
    .insertInto('mail_outbox')
    .values({
      id,
      merchant_id: m.merchantId,
      kind: m.kind,
      to_address: to,
      from_name: fromName,
      reply_to: replyTo,
      subject: headerText(m.subject, 250),
      text_body: m.text,
      html_body: m.html ?? null,
      // The left part of the Message-ID, fixed now: every attempt, before or after a crash, carries the same one.
      message_id: `${id}.${now.toString(36)}`,
      dedupe_key: m.dedupeKey ?? null,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_owner: null,
      lease_until: null,
      last_code: null,
      last_response: null,
      created_at: now,
      updated_at: now,
      sent_at: null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 1n) === 0 ? null : id;
}
