import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import { AppError, invalid } from '../errors.js';
import { enqueueSecurityNotice, noteClientAddress } from '../mail/account-mails.js';
import type { Database } from '../store/schema.js';
import { passwordProblem } from './accounts.js';
import { membershipsOf } from './memberships.js';
import { consumePasswordToken } from './password-tokens.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { createSession, endUserSessions, purgeExpiredSessions } from './sessions.js';
import {
  accountKey,
  addressKey,
  clearFailures,
  countAttempt,
  forgiveAttempt,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
} from './sign-in-throttle.js';
import {
  checkSecondFactor,
  consumePendingSignIn,
  createPendingSignIn,
  findPendingSignIn,
  hasTwoFactor,
  PENDING_SIGN_IN_MS,
  twoFactorOf,
} from './two-factor.js';
import { findUserByEmail, getUser, normalEmail, recordSignIn, setPasswordHash } from './users.js';

/** `settings.publicUrl` builds the links of the security notices a sign-in or a new password sends. */
type Deps = { db: Kysely<Database>; clock: Clock; settings: { publicUrl: string } };

/** A sign-in is about a person, not a merchant: each merchant the user belongs to gets the entry. */
async function auditInEachMerchant(
  db: Kysely<Database>,
  user: { id: string; email: string },
  action: 'sign_in' | 'sign_in.failed' | 'password.set',
  address: string,
  now: number,
): Promise<void> {
  for (const m of await membershipsOf(db, user.id))
    await recordAudit(db, now, {
      merchantId: m.merchant_id,
      actor: { userId: user.id, email: user.email },
      action,
      address,
    });
}

/** A sign-in from a client address the user never signed in from before earns a notice (not the very first). */
async function noticeNewAddress(
  trx: Kysely<Database>,
  user: { id: string; email: string },
  address: string,
  publicUrl: string,
  now: number,
): Promise<void> {
  if (await noteClientAddress(trx, user.id, address, now))
    await enqueueSecurityNotice(
      trx,
      { to: user.email, notice: { kind: 'new_client_address', address }, publicUrl },
      now,
    );
}

function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

/**
 * Counts one sign-in attempt (a password or a second-factor code) on the client address and the account, before
 * anything is checked, and refuses it past either limit (sign-in-throttle.ts).
 */
async function countOrRefuse(db: Kysely<Database>, email: string, address: string, now: number) {
  const addrKey = addressKey(address);
  const acctKey = accountKey(email);
  // Counted before the password is checked, so parallel tries cannot all pass before the first failure is known.
  const byAddress = await countAttempt(db, addrKey, MAX_FAILURES_PER_ADDRESS, now);
  const byAccount = await countAttempt(db, acctKey, MAX_FAILURES_PER_ACCOUNT, now);
  if (byAddress > 0 || byAccount > 0) {
    // Refused unchecked: this attempt guessed nothing, so it does not count (the window still runs to its end).
    await forgiveAttempt(db, addrKey);
    await forgiveAttempt(db, acctKey);
    const wait = Math.max(byAddress, byAccount);
    const who = byAccount > 0 ? 'this account' : 'your network address';
    throw new AppError('RATE_LIMITED', `Too many failed sign-ins for ${who}. Try again in ${minutes(wait)}.`, {
      retryAfter: wait,
    });
  }
  return { addrKey, acctKey };
}

export type SignInResult =
  | { token: string; userId: string; pendingToken?: undefined }
  | { pendingToken: string; expiresAt: number; token?: undefined };

/**
 * Signs a user in: a new session token for the cookie, or, for a user with two-factor on, a pending sign-in that
 * a second request completes with a code (signInWithCode). Each attempt is counted first; past the address's or the
 * account's limit it is refused before the password is even checked (sign-in-throttle.ts).
 * Wrong e-mail and wrong password read alike and take alike long (passwords.ts), so addresses cannot be probed.
 */
export async function signIn(
  { db, clock, settings }: Deps,
  o: { email: string; password: string; address: string },
): Promise<SignInResult> {
  const now = clock.now();
  const email = normalEmail(o.email);
  const { addrKey, acctKey } = await countOrRefuse(db, email, o.address, now);
  const user = await findUserByEmail(db, email);
  const good = await verifyPassword(o.password, user?.password_hash ?? null);
  // A failure stays counted on both keys. A known user's merchants see it in their audit log.
  if (!user || !good || user.active !== 1) {
    if (user) await auditInEachMerchant(db, user, 'sign_in.failed', o.address, now);
    throw new AppError('UNAUTHORIZED', 'Wrong e-mail address or password');
  }
  if (await hasTwoFactor(db, user.id)) {
    // The attempt stays counted until a code completes it: otherwise the right password, retyped, would buy an
    // endless supply of code guesses. The codes of the second step count on the same keys.
    const pendingToken = await createPendingSignIn(db, user.id, now);
    return { pendingToken, expiresAt: now + PENDING_SIGN_IN_MS };
  }
  await clearFailures(db, acctKey);
  await forgiveAttempt(db, addrKey);
  await purgeExpiredSessions(db, now);
  const { token } = await db.transaction().execute(async (trx) => {
    const s = await createSession(trx, user.id, now);
    await recordSignIn(trx, user.id, now);
    await auditInEachMerchant(trx, user, 'sign_in', o.address, now);
    await noticeNewAddress(trx, user, o.address, settings.publicUrl, now);
    return s;
  });
  return { token, userId: user.id };
}

/**
 * The second step of a two-factor sign-in: a TOTP code not used before, or an unused recovery code, turns the
 * pending sign-in into a session. Each try counts against the sign-in limits like a password, so with at most five
 * tries per account in fifteen minutes a million codes cannot be walked through. The code, the pending sign-in's
 * use, the session and the audit entries commit together.
 */
export async function signInWithCode(
  { db, clock, settings }: Deps,
  o: { pendingToken: string; code: string; address: string },
): Promise<{ token: string; userId: string; email: string }> {
  const now = clock.now();
  const userId = await findPendingSignIn(db, o.pendingToken, now);
  const user = userId ? await getUser(db, userId) : undefined;
  if (user?.active !== 1)
    throw new AppError(
      'UNAUTHORIZED',
      'This sign-in expired or was completed already: sign in again with your password',
    );
  const { addrKey, acctKey } = await countOrRefuse(db, user.email, o.address, now);
  await purgeExpiredSessions(db, now);
  const done = await db.transaction().execute(async (trx) => {
    const kind = await checkSecondFactor(trx, user.id, o.code, now);
    if (!kind || !(await consumePendingSignIn(trx, o.pendingToken))) return undefined;
    const s = await createSession(trx, user.id, now);
    await recordSignIn(trx, user.id, now);
    await auditInEachMerchant(trx, user, 'sign_in', o.address, now);
    await noticeNewAddress(trx, user, o.address, settings.publicUrl, now);
    if (kind === 'recovery') {
      const { recoveryCodesLeft } = await twoFactorOf(trx, user.id);
      for (const m of await membershipsOf(trx, user.id))
        await recordAudit(trx, now, {
          merchantId: m.merchant_id,
          actor: { userId: user.id, email: user.email },
          action: 'two_factor.recovery_code',
          details: { recovery_codes_left: recoveryCodesLeft },
          address: o.address,
        });
    }
    return s;
  });
  if (!done) {
    await auditInEachMerchant(db, user, 'sign_in.failed', o.address, now);
    throw new AppError(
      'UNAUTHORIZED',
      'Wrong or already used code: type the code your app shows now, or a recovery code',
    );
  }
  // The password's attempt and this one are forgiven on the address; the account starts afresh.
  await clearFailures(db, acctKey);
  await forgiveAttempt(db, addrKey);
  await forgiveAttempt(db, addrKey);
  return { token: done.token, userId: user.id, email: user.email };
}

/**
 * Sets a password through a one-time link: the link is used up, the password stored hashed, and every session of
 * the user ends, in one transaction.
 */
export async function setPasswordWithToken(
  { db, clock, settings }: Deps,
  token: string,
  password: string,
  address: string,
): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw invalid('password', problem);
  const hash = await hashPassword(password);
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    const userId = await consumePasswordToken(trx, token, now);
    if (!userId)
      throw new AppError(
        'NOT_FOUND',
        'This link is not valid: it was used already, it expired, or it was mistyped. Ask for a new one.',
      );
    const user = await getUser(trx, userId);
    await setPasswordHash(trx, userId, hash, now);
    await endUserSessions(trx, userId);
    // Audited in each merchant of the user, like a sign-in: the link's user is the actor (never the token).
    if (user) await auditInEachMerchant(trx, user, 'password.set', address, now);
    // A first password (an invitation) is no news; a replaced one (a forgotten password) is.
    if (user?.password_hash)
      await enqueueSecurityNotice(
        trx,
        { to: user.email, notice: { kind: 'password_changed' }, publicUrl: settings.publicUrl },
        now,
      );
  });
}
