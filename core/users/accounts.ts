import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import { AppError, invalid } from '../errors.js';
import { getMerchant } from '../merchants/merchants.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { deleteMembership, deleteMemberships, insertMembership, type Role, roleIn } from './memberships.js';
import { issuePasswordToken, voidPasswordTokens } from './password-tokens.js';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js';
import { endUserSessions } from './sessions.js';
import { accountKey, countAttempt, forgiveAttempt, MAX_FAILURES_PER_ACCOUNT } from './sign-in-throttle.js';
import { type DashboardUser, findUserByEmail, getUser, insertUser, setPasswordHash, setUserActive } from './users.js';

/*
 * Dashboard accounts as operators manage them (admin CLI `user ...`): users, their memberships, their passwords.
 */

type Deps = { db: Kysely<Database>; clock: Clock };

/** What is wrong with a new password, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw invalid('password', problem);
}

export interface AddedUser {
  user: DashboardUser;
  /** False when the e-mail address was already a user: a membership was added to it. */
  created: boolean;
  role: Role;
  /** A one-time set-password token when the new user got no password. */
  passwordToken: string | null;
}

/**
 * Gives `email` a role in a merchant: a new user, or a membership for an existing one (one person, several
 * merchants: a shop's test and live merchants). A new user without `password` gets a one-time link token instead.
 *
 * @example await addUser(deps, { merchantId: 'mer_...', email: 'ann@shop.example', role: 'owner' })
 */
export async function addUser(
  { db, clock }: Deps,
  o: { merchantId: string; email: string; role: Role; password?: string | undefined },
): Promise<AddedUser> {
  if (!(await getMerchant(db, o.merchantId))) throw new AppError('NOT_FOUND', `Merchant ${o.merchantId} not found`);
  if (o.password !== undefined) checkPassword(o.password);
  const existing = await findUserByEmail(db, o.email);
  const now = clock.now();
  if (existing?.active === 1) {
    const had = await roleIn(db, existing.id, o.merchantId);
    if (had) throw new AppError('CONFLICT', `${existing.email} already has the ${had} role in ${o.merchantId}`);
    if (o.password !== undefined)
      throw new AppError(
        'CONFLICT',
        `${existing.email} is already a user (of another merchant); their password stays as it is (use user reset-password to change it)`,
      );
    await insertMembership(db, { user_id: existing.id, merchant_id: o.merchantId, role: o.role, created_at: now });
    return { user: existing, created: false, role: o.role, passwordToken: null };
  }
  const hash = o.password === undefined ? null : await hashPassword(o.password);
  // A deactivated user comes back as new: deactivation took their memberships and password (deactivateUser), so
  // they get this one role and a fresh password, never what they had before.
  const user = await inTransaction(db, async (trx) => {
    let u: DashboardUser;
    if (existing) {
      await setPasswordHash(trx, existing.id, hash, now);
      await setUserActive(trx, existing.id, true, now);
      u = { ...existing, password_hash: hash, active: 1, updated_at: now };
    } else u = await insertUser(trx, o.email, hash, now);
    await insertMembership(trx, { user_id: u.id, merchant_id: o.merchantId, role: o.role, created_at: now });
    return u;
  });
  const passwordToken = hash === null ? await issuePasswordToken(db, user.id, now) : null;
  return { user, created: !existing, role: o.role, passwordToken };
}

async function requireUser(db: Kysely<Database>, email: string): Promise<DashboardUser> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new AppError('NOT_FOUND', `No dashboard user ${email}`);
  return user;
}

/**
 * A new password for a user, given now (`password`) or through a one-time link (the returned token). Either way
 * the user's sessions end at once: a reset is often because the old password leaked, so in link mode the old
 * password is cleared at once too, not when the link is used.
 */
export async function resetPassword(
  { db, clock }: Deps,
  email: string,
  password?: string,
): Promise<{ user: DashboardUser; passwordToken: string | null }> {
  if (password !== undefined) checkPassword(password);
  const user = await requireUser(db, email);
  const now = clock.now();
  const hash = password === undefined ? null : await hashPassword(password);
  const passwordToken = await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, hash, now);
    await endUserSessions(trx, user.id);
    if (hash !== null) {
      await voidPasswordTokens(trx, user.id, now);
      return null;
    }
    return issuePasswordToken(trx, user.id, now);
  });
  return { user, passwordToken };
}

/**
 * Takes a user's access away: from one merchant (`merchantId`: the membership goes), or everywhere: the user is
 * deactivated and signed out at once, and loses every membership, their password and unused links, so a role
 * given later (`user create`) brings back that role only, with a new password.
 */
export async function deactivateUser({ db, clock }: Deps, email: string, merchantId?: string): Promise<DashboardUser> {
  const user = await requireUser(db, email);
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    if (merchantId !== undefined) {
      if (!(await deleteMembership(trx, user.id, merchantId)))
        throw new AppError('NOT_FOUND', `${user.email} has no role in ${merchantId}`);
    } else {
      await deleteMemberships(trx, user.id);
      await setPasswordHash(trx, user.id, null, now);
      await voidPasswordTokens(trx, user.id, now);
      await setUserActive(trx, user.id, false, now);
    }
    await endUserSessions(trx, user.id);
  });
  return user;
}

/** The members of a merchant with their roles (the dashboard's Users page). */
export function membersOf(db: Kysely<Database>, merchantId: string) {
  return db
    .selectFrom('dashboard_memberships')
    .innerJoin('dashboard_users', 'dashboard_users.id', 'dashboard_memberships.user_id')
    .select([
      'dashboard_users.id',
      'dashboard_users.email',
      'dashboard_users.password_hash',
      'dashboard_users.last_sign_in_at',
      'dashboard_memberships.role',
      'dashboard_memberships.created_at',
    ])
    .where('dashboard_memberships.merchant_id', '=', merchantId)
    .where('dashboard_users.active', '=', 1)
    .orderBy('dashboard_users.email')
    .execute();
}

/** Refuses a change that would leave a merchant with no owner: nobody could then manage its users or keys. */
async function keepAnOwner(db: Kysely<Database>, merchantId: string, userId: string): Promise<void> {
  const others = await db
    .selectFrom('dashboard_memberships')
    .select('user_id')
    .where('merchant_id', '=', merchantId)
    .where('role', '=', 'owner')
    .where('user_id', '!=', userId)
    .limit(1)
    .execute();
  if (others.length === 0)
    throw new AppError('CONFLICT', 'This is the only owner of this merchant: make someone else an owner first');
}

/**
 * A member's new role in one merchant (an owner's dashboard). Undefined when the user is no member (reads as not
 * found). The last owner is not demoted.
 */
export async function changeRole(
  db: Kysely<Database>,
  merchantId: string,
  userId: string,
  role: Role,
): Promise<{ email: string; from: Role } | undefined> {
  return inTransaction(db, async (trx) => {
    const m = (await membersOf(trx, merchantId)).find((x) => x.id === userId);
    if (!m) return undefined;
    if (m.role === 'owner' && role !== 'owner') await keepAnOwner(trx, merchantId, userId);
    await trx
      .updateTable('dashboard_memberships')
      .set({ role })
      .where('user_id', '=', userId)
      .where('merchant_id', '=', merchantId)
      .execute();
    // No sign-out needed: every request and each batch of live events reads the role afresh.
    return { email: m.email, from: m.role };
  });
}

/**
 * Removes a member from one merchant; their other merchants stay, and so do their sessions (every request and each
 * batch of live events checks the membership, so this merchant reads as not found at once). The last owner is not
 * removed. Undefined when the user is no member.
 */
export async function removeMember(
  db: Kysely<Database>,
  merchantId: string,
  userId: string,
): Promise<{ email: string; role: Role } | undefined> {
  return inTransaction(db, async (trx) => {
    const m = (await membersOf(trx, merchantId)).find((x) => x.id === userId);
    if (!m) return undefined;
    if (m.role === 'owner') await keepAnOwner(trx, merchantId, userId);
    await deleteMembership(trx, userId, merchantId);
    return { email: m.email, role: m.role };
  });
}

/**
 * A signed-in user's new password, given the current one (a session left open on a shared computer must not be
 * enough to lock its owner out). Every other session of the user ends; `keepSessionId` stays signed in. The check
 * counts against the account's sign-in limit like a sign-in (sign-in-throttle.ts). `audit` runs in the transaction.
 */
export async function changePassword(
  { db, clock }: Deps,
  o: { userId: string; current: string; next: string; keepSessionId: string },
  audit: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  const problem = passwordProblem(o.next);
  if (problem) throw invalid('new_password', problem);
  const user = await getUser(db, o.userId);
  if (!user) throw new AppError('UNAUTHORIZED', 'Not signed in, or your session expired: sign in again');
  const now = clock.now();
  const key = accountKey(user.email);
  const wait = await countAttempt(db, key, MAX_FAILURES_PER_ACCOUNT, now);
  if (wait > 0) {
    await forgiveAttempt(db, key);
    throw new AppError('RATE_LIMITED', 'Too many wrong passwords for this account. Try again later.', {
      retryAfter: wait,
    });
  }
  if (!(await verifyPassword(o.current, user.password_hash)))
    throw invalid('current_password', 'Not your current password');
  await forgiveAttempt(db, key);
  const hash = await hashPassword(o.next);
  await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, hash, now);
    await voidPasswordTokens(trx, user.id, now);
    await trx
      .deleteFrom('dashboard_sessions')
      .where('user_id', '=', user.id)
      .where('id', '!=', o.keepSessionId)
      .execute();
    await audit(trx);
  });
}
