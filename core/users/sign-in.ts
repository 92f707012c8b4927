import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import { AppError, invalid } from '../errors.js';
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
import { findUserByEmail, normalEmail, recordSignIn, setPasswordHash } from './users.js';

type Deps = { db: Kysely<Database>; clock: Clock };

/** A sign-in is about a person, not a merchant: each merchant the user belongs to gets the entry. */
async function auditSignIn(
  db: Kysely<Database>,
  user: { id: string; email: string },
  action: 'sign_in' | 'sign_in.failed',
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

function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

/**
 * Signs a user in: a new session token for the cookie, or a failure that says what to do. Each attempt is counted
 * first; past the address's or the account's limit it is refused before the password is even checked
 * (sign-in-throttle.ts).
 * Wrong e-mail and wrong password read alike and take alike long (passwords.ts), so addresses cannot be probed.
 */
export async function signIn(
  { db, clock }: Deps,
  o: { email: string; password: string; address: string },
): Promise<{ token: string; userId: string }> {
  const now = clock.now();
  const email = normalEmail(o.email);
  const addrKey = addressKey(o.address);
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
  const user = await findUserByEmail(db, email);
  const good = await verifyPassword(o.password, user?.password_hash ?? null);
  // A failure stays counted on both keys. A known user's merchants see it in their audit log.
  if (!user || !good || user.active !== 1) {
    if (user) await auditSignIn(db, user, 'sign_in.failed', o.address, now);
    throw new AppError('UNAUTHORIZED', 'Wrong e-mail address or password');
  }
  await clearFailures(db, acctKey);
  await forgiveAttempt(db, addrKey);
  await purgeExpiredSessions(db, now);
  const { token } = await db.transaction().execute(async (trx) => {
    const s = await createSession(trx, user.id, now);
    await recordSignIn(trx, user.id, now);
    await auditSignIn(trx, user, 'sign_in', o.address, now);
    return s;
  });
  return { token, userId: user.id };
}

/**
 * Sets a password through a one-time link: the link is used up, the password stored hashed, and every session of
 * the user ends, in one transaction.
 */
export async function setPasswordWithToken({ db, clock }: Deps, token: string, password: string): Promise<void> {
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
    await setPasswordHash(trx, userId, hash, now);
    await endUserSessions(trx, userId);
  });
}
