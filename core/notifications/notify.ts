import type { Kysely } from 'kysely';
import { newId } from '../ids.js';
import { PUBLIC_URL_SETTING } from '../mail/customer-mails.js';
import { enqueueMail } from '../mail/outbox.js';
import { renderMail } from '../mail/render.js';
import type { Database } from '../store/schema.js';
import { getSetting } from '../store/settings.js';
import { type NotifyEvent, subscribersOf } from './prefs.js';

export const NOTICE_FOOTER =
  'You get this because you chose it under Notifications in the payments dashboard, where you can change it.';

/** Something members may be told about: one occurrence of an event. */
export interface Notice {
  event: NotifyEvent;
  /** Names this occurrence: each member gets it once, however often it is noticed (a retry, a second process). */
  key: string;
  /** Who: the members of these merchants, or of every merchant in a mode (service-wide conditions). */
  scope: { merchantIds: readonly string[] } | { mode: 'live' | 'test' };
  /** The mail's subject and the digest's line (plain text; escaped when rendered). */
  title: string;
  /** Sentences of an immediate mail. */
  text: string[];
  rows?: [string, string][];
  /** The dashboard page it is about (`/dashboard/m/{merchant}/payments/{id}`), joined to PUBLIC_URL only. */
  page?: (merchantId: string) => string;
}

/**
 * Tells every member who chose the notice's event: a mail now (immediate) or a line for their daily digest. Call it
 * in the transaction of the change that causes it, so the mail exists if and only if the change committed (the
 * outbox rule); for a condition with no such change, open an episode first (episodes.ts). Returns how many members
 * it reached.
 */
export async function notify(trx: Kysely<Database>, n: Notice, now: number): Promise<number> {
  const subs = await subscribersOf(trx, n.event, n.scope);
  if (subs.length === 0) return 0;
  const publicUrl = await getSetting(trx, PUBLIC_URL_SETTING);
  let reached = 0;
  for (const s of subs) {
    const link = publicUrl && n.page ? `${publicUrl}${n.page(s.merchantId)}` : null;
    const dedupeKey = `notify:${n.key}:${s.userId}:${s.merchantId}`;
    if (s.delivery === 'digest') {
      const res = await trx
        .insertInto('notification_digest_items')
        .values({
          id: newId('ntf'),
          user_id: s.userId,
          merchant_id: s.merchantId,
          event: n.event,
          line: n.title,
          link,
          dedupe_key: dedupeKey,
          created_at: now,
          digest_day: null,
        })
        .onConflict((oc) => oc.column('dedupe_key').doNothing())
        .executeTakeFirst();
      reached += Number(res.numInsertedOrUpdatedRows ?? 1n);
      continue;
    }
    const content = renderMail({
      subject: `[${s.merchantName}] ${n.title}`,
      blocks: [
        ...n.text.map((p) => ({ p })),
        ...(n.rows && n.rows.length > 0 ? [{ rows: n.rows }] : []),
        ...(link ? [{ button: { label: 'Open in the dashboard', url: link } }] : []),
      ],
      footer: NOTICE_FOOTER,
    });
    const id = await enqueueMail(
      trx,
      { merchantId: s.merchantId, kind: `notify.${n.event}`, to: s.email, ...content, dedupeKey },
      now,
    );
    if (id) reached++;
  }
  return reached;
}
