import type { Kysely, Selectable } from 'kysely';
import { newId } from '../ids.js';
import type { DashboardUserTable, Database } from '../store/schema.js';

/*
 * The dashboard_users table: one row per person (e-mail address, kept lower case), whatever merchants they belong
 * to (memberships.ts). Passwords are stored hashed only (passwords.ts).
 */

type Db = Kysely<Database>;
export type DashboardUser = Selectable<DashboardUserTable>;

/** E-mail addresses compare without case: `Ann@Shop.example` and `ann@shop.example` are one user. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function findUserByEmail(db: Db, email: string): Promise<DashboardUser | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('email', '=', normalEmail(email)).executeTakeFirst();
}

export function getUser(db: Db, id: string): Promise<DashboardUser | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts a user; `passwordHash` null means "set through a one-time link". */
export async function insertUser(
  db: Db,
  email: string,
  passwordHash: string | null,
  now: number,
): Promise<DashboardUser> {
  const user: DashboardUser = {
    id: newId('usr', 16),
    email: normalEmail(email),
    password_hash: passwordHash,
    active: 1,
    created_at: now,
    updated_at: now,
    last_sign_in_at: null,
  };
  await db.insertInto('dashboard_users').values(user).execute();
  return user;
}

/** Stores a password hash; null clears the password, so none signs in until a link sets a new one. */
export async function setPasswordHash(db: Db, userId: string, passwordHash: string | null, now: number): Promise<void> {
  await db
    .updateTable('dashboard_users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function setUserActive(db: Db, userId: string, active: boolean, now: number): Promise<void> {
  await db
    .updateTable('dashboard_users')
    .set({ active: active ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function recordSignIn(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('dashboard_users').set({ last_sign_in_at: now }).where('id', '=', userId).execute();
}

/** Every user, by e-mail address; with `merchantId`, only that merchant's. */
export function listUsers(db: Db, merchantId?: string): Promise<DashboardUser[]> {
  let q = db.selectFrom('dashboard_users').selectAll('dashboard_users');
  if (merchantId !== undefined)
    q = q
      .innerJoin('dashboard_memberships', 'dashboard_memberships.user_id', 'dashboard_users.id')
      .where('dashboard_memberships.merchant_id', '=', merchantId);
  return q.orderBy('dashboard_users.email').execute();
}
