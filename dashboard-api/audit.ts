import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import { type AuditFacts, recordAudit } from '../core/audit/audit-log.js';
import type { Database } from '../core/store/schema.js';
import { membershipsOf } from '../core/users/memberships.js';
import type { DashCtx, DashEnv } from './context.js';

/** What a dashboard change says about itself; merchant, actor and client address come from the request. */
export type AuditNote = Omit<AuditFacts, 'merchantId' | 'actor' | 'address'> & { merchantId?: string };

/**
 * Runs a dashboard change and writes its audit entry in one transaction: a change that fails leaves no entry, and
 * an entry that cannot be written undoes the change. `note` sees the change's result (a new key's id, a user's
 * role). Afterwards the key cache is emptied: a key or merchant row may have changed, and the cache must not keep
 * what this transaction replaced (the core functions' own invalidation ran before this commit).
 */
export async function audited<T>(
  x: DashCtx,
  c: Context<DashEnv>,
  change: (trx: Kysely<Database>) => Promise<T>,
  note: (result: T) => AuditNote,
): Promise<T> {
  const result = await x.deps.db.transaction().execute(async (trx) => {
    const r = await change(trx);
    await auditIn(x, c, trx, note(r));
    return r;
  });
  x.deps.keys.invalidate();
  return result;
}

/**
 * The entry of a dashboard change made by a core function that opens its own transaction (createPayment's
 * `alsoInTransaction`): written with that transaction, so the change and its entry commit or fail together.
 */
export async function auditIn(x: DashCtx, c: Context<DashEnv>, trx: Kysely<Database>, n: AuditNote): Promise<void> {
  const signedIn = c.get('signedIn');
  await recordAudit(trx, x.deps.clock.now(), {
    ...n,
    merchantId: n.merchantId ?? c.get('merchant').id,
    actor: { userId: signedIn.userId, email: signedIn.email },
    address: x.clientAddress(c),
  });
}

/**
 * An entry in each merchant of the signed-in user, for a change to their own account (password, two-factor): the
 * account is theirs, and every merchant they can act in should see it. Pass the change's transaction.
 */
export async function auditAccountChange(
  x: DashCtx,
  c: Context<DashEnv>,
  trx: Kysely<Database>,
  action: AuditFacts['action'],
  details?: AuditFacts['details'],
): Promise<void> {
  const s = c.get('signedIn');
  for (const m of await membershipsOf(trx, s.userId))
    await recordAudit(trx, x.deps.clock.now(), {
      merchantId: m.merchant_id,
      actor: { userId: s.userId, email: s.email },
      action,
      ...(details ? { details } : {}),
      address: x.clientAddress(c),
    });
}
