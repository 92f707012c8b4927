import type { Kysely } from 'kysely';
import { newId } from '../ids.js';
import { newestFirstPage } from '../store/cursor.js';
import type { Database } from '../store/schema.js';

/*
 * The audit_log table: who changed what in a merchant, when and from where. An entry is written with the same
 * transaction handle as the change it records (dashboard-api/audit.ts), so a change that fails leaves no entry and
 * an entry that cannot be written undoes the change. Details hold facts (a URL, a role, a label, a key's prefix),
 * never a secret: no key, webhook secret, password, link token or xpub private part ever reaches this table.
 */

type Db = Kysely<Database>;

export const auditActions = [
  'sign_in',
  'sign_in.failed',
  'password.change',
  'password.set',
  'payment.refund',
  'payment.accept',
  'payment.ask_rest',
  'settings.tolerance',
  'payment.link',
  'link.create',
  'link.update',
  'checkout.try',
  'refund.create',
  'refund.cancel',
  'refund.prove',
  'refund.claim_link',
  'refund.confirm_address',
  'key.create',
  'key.rotate',
  'key.deactivate',
  'key.label',
  'webhook.url',
  'webhook.secret',
  'webhook.enable',
  'webhook.test',
  'webhook.redeliver',
  'webhook.redeliver_failed',
  'settings.update',
  'merchant.create',
  'xpub.set',
  'payout.set',
  'monero_keys.set',
  'user.invite',
  'user.role',
  'user.remove',
  'two_factor.enable',
  'two_factor.disable',
  'two_factor.recovery_code',
  'two_factor.require',
  'mail.settings',
  'mail.test',
] as const;
export type AuditAction = (typeof auditActions)[number];

export type AuditDetails = Record<string, string | number | boolean | null | string[]>;

export interface AuditActor {
  userId: string;
  email: string;
}

export interface AuditFacts {
  merchantId: string;
  /** Null: the operator's admin CLI. */
  actor: AuditActor | null;
  action: AuditAction;
  target?: string | null;
  details?: AuditDetails;
  address?: string | null;
}

/** Writes one entry. Pass the transaction of the change it records. */
export async function recordAudit(db: Db, now: number, f: AuditFacts): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId('aud', 20),
      merchant_id: f.merchantId,
      created_at: now,
      actor_user_id: f.actor?.userId ?? null,
      actor_email: f.actor?.email ?? null,
      action: f.action,
      target: f.target ?? null,
      details: JSON.stringify(f.details ?? {}),
      client_address: f.address ?? null,
    })
    .execute();
}

export interface AuditFilter {
  /** An action (`key.rotate`) or a group (`key`: every `key.` action). */
  action?: string | undefined;
  /** The actor's e-mail address, exact (lower case). */
  actor?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** One merchant's entries, newest first, in keyset pages (index audit_log_merchant_at). */
export async function listAudit(db: Db, merchantId: string, f: AuditFilter) {
  let q = db.selectFrom('audit_log').selectAll().where('merchant_id', '=', merchantId);
  if (f.action !== undefined)
    q = f.action.includes('.')
      ? q.where('action', '=', f.action)
      : q.where((e) => e.or([e('action', '=', f.action as string), e('action', 'like', `${f.action}.%`)]));
  if (f.actor !== undefined) q = q.where('actor_email', '=', f.actor.toLowerCase());
  if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('created_at', '<', f.to);
  return newestFirstPage(q, f.cursor, f.limit);
}

/** Deletes entries older than `before`, a batch per short transaction; returns how many went. */
export async function pruneAudit(db: Db, before: number, batchSize = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const ids = (
        await trx
          .selectFrom('audit_log')
          .select('id')
          .where('created_at', '<', before)
          .orderBy('created_at')
          .limit(batchSize)
          .execute()
      ).map((r) => r.id);
      if (ids.length > 0) await trx.deleteFrom('audit_log').where('id', 'in', ids).execute();
      return ids.length;
    });
    total += n;
    if (n < batchSize) return total;
    await new Promise((r) => setTimeout(r, 20));
  }
}
