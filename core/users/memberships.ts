import type { Kysely, Selectable } from 'kysely';
import type { DashboardMembershipTable, Database } from '../store/schema.js';

/*
 * The dashboard_memberships table: a user's role in one merchant. A shop usually has a test and a live merchant;
 * one user with a membership in each switches between them in the dashboard.
 */

type Db = Kysely<Database>;
export type Membership = Selectable<DashboardMembershipTable>;
export type Role = Membership['role'];
export const roles = ['owner', 'viewer', 'cashier'] as const satisfies readonly Role[];

export async function insertMembership(db: Db, m: Membership): Promise<void> {
  await db.insertInto('dashboard_memberships').values(m).execute();
}

export async function deleteMembership(db: Db, userId: string, merchantId: string): Promise<boolean> {
  const res = await db
    .deleteFrom('dashboard_memberships')
    .where('user_id', '=', userId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Every membership of a user goes (deactivation everywhere). */
export async function deleteMemberships(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('dashboard_memberships').where('user_id', '=', userId).execute();
}

/** The user's role in a merchant, or undefined when they have none (that merchant reads as not found). */
export async function roleIn(db: Db, userId: string, merchantId: string): Promise<Role | undefined> {
  const row = await db
    .selectFrom('dashboard_memberships')
    .select('role')
    .where('user_id', '=', userId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return row?.role;
}

/** The merchants a user belongs to, with their name and mode (the dashboard's merchant switcher). */
export function membershipsOf(db: Db, userId: string) {
  return db
    .selectFrom('dashboard_memberships')
    .innerJoin('merchants', 'merchants.id', 'dashboard_memberships.merchant_id')
    .select([
      'dashboard_memberships.merchant_id',
      'dashboard_memberships.role',
      'merchants.name',
      'merchants.mode',
      'merchants.active',
    ])
    .where('dashboard_memberships.user_id', '=', userId)
    .orderBy('merchants.created_at')
    .execute();
}
