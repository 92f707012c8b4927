import { hash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { newId, secretToken } from '../ids.js';
import type { DashboardSessionTable, Database } from '../store/schema.js';

/*
 * The dashboard_sessions table: server-side sessions of signed-in browsers. The browser holds a random token in an
 * HttpOnly cookie; the store holds only its SHA-256, so a copy of the store signs no one in.
 */

type Db = Kysely<Database>;
export type DashboardSession = Selectable<DashboardSessionTable>;

/** A session unused this long ends (idle expiry). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** A session ends this long after sign-in, used or not (absolute expiry). */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** `last_seen_at` is written at most this often per session, so reading pages costs no write per request. */
export const SESSION_TOUCH_MS = 60 * 1000;

/** Session tokens carry 256 random bits, so one SHA-256 is a sound at-rest hash (as for API keys). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * The session's CSRF token: derived from the session token by a one-way function, so it needs no storage, differs
 * per session, and reveals nothing of the cookie. The dashboard sends it in `X-CSRF-Token` on every change.
 *
 * @example csrfTokenOf('ds_...') // 'k3J...' (43 characters)
 */
export function csrfTokenOf(sessionToken: string): string {
  return hash('sha256', `csrf:${sessionToken}`, 'base64url');
}

export async function createSession(db: Db, userId: string, now: number): Promise<{ token: string; id: string }> {
  const token = `ds_${secretToken(32)}`;
  const id = newId('dss', 16);
  await db
    .insertInto('dashboard_sessions')
    .values({
      id,
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_ABSOLUTE_MS,
    })
    .execute();
  return { token, id };
}

/**
 * The live session of a token, with its user, or undefined when unknown, idle too long, past its absolute expiry,
 * or its user is deactivated. Marks it seen when the last mark is older than SESSION_TOUCH_MS, unless `touch` is
 * false (an open event stream checking on its session is no sign that someone is there).
 */
export async function findLiveSession(db: Db, token: string, now: number, touch = true) {
  if (!/^ds_[\w-]{20,100}$/.test(token)) return undefined;
  const row = await db
    .selectFrom('dashboard_sessions')
    .innerJoin('dashboard_users', 'dashboard_users.id', 'dashboard_sessions.user_id')
    .select([
      'dashboard_sessions.id',
      'dashboard_sessions.user_id',
      'dashboard_sessions.last_seen_at',
      'dashboard_sessions.expires_at',
      'dashboard_users.email',
      'dashboard_users.active',
    ])
    .where('dashboard_sessions.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (row?.active !== 1 || row.expires_at <= now || row.last_seen_at + SESSION_IDLE_MS <= now) return undefined;
  if (touch && now - row.last_seen_at >= SESSION_TOUCH_MS)
    await db.updateTable('dashboard_sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
  return { id: row.id, userId: row.user_id, email: row.email };
}

export async function endSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** Signs a user out everywhere (deactivation, a new password). */
export async function endUserSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).execute();
}

/** Drops sessions past their absolute expiry (idle ones are refused anyway and go by then). */
export async function purgeExpiredSessions(db: Db, now: number): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).execute();
}
