import type { Kysely } from 'kysely';
import { secretToken } from '../ids.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { hashToken } from './sessions.js';

/*
 * The dashboard_password_tokens table: one-time links to set a password. Stored hashed, single-use, expiring; a new
 * link for a user voids the user's earlier ones.
 */

type Db = Kysely<Database>;

/** How long a set-password link works. */

export const PASSWORD_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** Voids every unused link of a user (a new link, a reset by password, a deactivation). */
export async function voidPasswordTokens(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('dashboard_password_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** A new link for a user, voiding the earlier ones; inside the caller's transaction when given one. */
export async function issuePasswordToken(
  db: Db,
  userId: string,
  now: number,
  ttlMs = PASSWORD_LINK_TTL_MS,
): Promise<string> {
  const token = `pw_${secretToken(32)}`;
  const write = async (trx: Db) => {
    await voidPasswordTokens(trx, userId, now);
    await trx
      .insertInto('dashboard_password_tokens')
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        created_at: now,
        expires_at: now + ttlMs,
        used_at: null,
      })
      .execute();
  };
  await inTransaction(db, write);
  return token;
}

/**
 * Uses a link up: returns its user, or undefined when the token is unknown, used or expired. The update is the
 * check, so two requests with one token never both succeed.
 */
export async function consumePasswordToken(db: Db, token: string, now: number): Promise<string | undefined> {
  if (!/^pw_[\w-]{20,100}$/.test(token)) return undefined;
  const tokenHash = hashToken(token);
  const res = await db
    .updateTable('dashboard_password_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return undefined;
  const row = await db
    .selectFrom('dashboard_password_tokens')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row?.user_id;
}
