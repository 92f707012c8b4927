import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/** A merchant's mail settings; a merchant that never saved any has these (receipts on, like every switch). */
export interface MailSettings {
  senderName: string | null;
  replyTo: string | null;
  receipts: boolean;
  underpaid: boolean;
  expiredPartlyPaid: boolean;
}

export const defaultMailSettings: MailSettings = {
  senderName: null,
  replyTo: null,
  receipts: true,
  underpaid: true,
  expiredPartlyPaid: true,
};

export async function getMailSettings(db: Kysely<Database>, merchantId: string): Promise<MailSettings> {
  const r = await db
    .selectFrom('merchant_mail_settings')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!r) return defaultMailSettings;
  return {
    senderName: r.sender_name,
    replyTo: r.reply_to,
    receipts: r.receipts === 1,
    underpaid: r.underpaid === 1,
    expiredPartlyPaid: r.expired_partly_paid === 1,
  };
}

export async function saveMailSettings(
  db: Kysely<Database>,
  merchantId: string,
  s: MailSettings,
  now: number,
): Promise<void> {
  const row = {
    sender_name: s.senderName,
    reply_to: s.replyTo,
    receipts: s.receipts ? 1 : 0,
    underpaid: s.underpaid ? 1 : 0,
    expired_partly_paid: s.expiredPartlyPaid ? 1 : 0,
    updated_at: now,
  };
  await db
    .insertInto('merchant_mail_settings')
    .values({ merchant_id: merchantId, ...row })
    .onConflict((oc) => oc.column('merchant_id').doUpdateSet(row))
    .execute();
}
