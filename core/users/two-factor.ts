import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { AppError, invalid } from '../errors.js';
import { secretToken } from '../ids.js';
import type { Database } from '../store/schema.js';
import { verifyPassword } from './passwords.js';
import { hashToken } from './sessions.js';
import { accountKey, countAttempt, forgiveAttempt, MAX_FAILURES_PER_ACCOUNT } from './sign-in-throttle.js';
import { getUser } from './users.js';

/*
 * TOTP two-factor sign-in for dashboard users (RFC 6238 by the `otpauth` library: 6 digits, 30 s, SHA-1, what
 * every authenticator app reads). Checking a code needs the secret itself, so it cannot be hashed: the store keeps
 * it encrypted with the secrets key (core/secrets, sealed and opened by the store's plugin). It is shown once, at
 * enrolment, and never logged. Recovery codes and pending sign-ins are random tokens kept as
 * SHA-256 only, like sessions.
 */

type Db = Kysely<Database>;

export const TOTP_PERIOD_S = 30;
/** Codes of the step before and after now are taken too: clocks of phones drift, and typing takes time. */
const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long the second step of a sign-in may wait for its code. */
export const PENDING_SIGN_IN_MS = 5 * 60 * 1000;
const ISSUER = 'Crypto payments dashboard';

function totpOf(secret: string, email: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

/** Whether a user signs in with a second factor, and how many recovery codes they have left. */
export async function twoFactorOf(db: Db, userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const row = await db
    .selectFrom('dashboard_two_factor')
    .select('enabled_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (row?.enabled_at == null) return { enabled: false, recoveryCodesLeft: 0 };
  const left = await db
    .selectFrom('dashboard_recovery_codes')
    .select((e) => e.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { enabled: true, recoveryCodesLeft: Number(left.n) };
}

export async function hasTwoFactor(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('dashboard_two_factor')
    .select('enabled_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.enabled_at != null;
}

/**
 * A new secret awaiting its first code (replacing an unfinished enrolment's). Refused when two-factor is on: the
 * secret in use is never shown again, and a new one comes only after disabling.
 */
export async function startEnrolment(
  db: Db,
  user: { userId: string; email: string },
  now: number,
): Promise<{ secret: string; uri: string }> {
  if (await hasTwoFactor(db, user.userId))
    throw new AppError('CONFLICT', 'Two-factor sign-in is on already; turn it off first to set up a new app');
  const secret = new Secret({ size: 20 }).base32;
  await db.deleteFrom('dashboard_two_factor').where('user_id', '=', user.userId).execute();
  await db
    .insertInto('dashboard_two_factor')
    .values({ user_id: user.userId, secret, created_at: now, enabled_at: null, last_step: null })
    .execute();
  return { secret, uri: totpOf(secret, user.email).toString() };
}

/**
 * The time step of a valid code of `secret` not used before, marked used; undefined for a wrong code or a replay.
 * The update is the check (`last_step` below the code's step), so two requests with one code never both pass.
 */
async function takeTotp(db: Db, userId: string, secret: string, code: string, now: number): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return false;
  const step = Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
  const res = await db
    .updateTable('dashboard_two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where((e) => e.or([e('last_step', 'is', null), e('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * `xxxxx-xxxxx` in Crockford's base32 (no i, l, o, u to misread): 32 symbols, so each random byte's low 5 bits pick
 * one without bias, 50 random bits a code.
 */
function newRecoveryCode(): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const chars = [...randomBytes(10)].map((b) => alphabet[b & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Typed as shown, or without the dash, in any case and with stray spaces. */
function normalRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/**
 * Completes enrolment with a code from the app (proof that it holds the secret): two-factor is on from here, and
 * ten new recovery codes replace any earlier ones. Returns the codes, shown once. Run it in the transaction of
 * its audit entry.
 */
export async function confirmEnrolment(db: Db, userId: string, code: string, now: number): Promise<string[]> {
  const row = await db
    .selectFrom('dashboard_two_factor')
    .select(['secret', 'enabled_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('CONFLICT', 'Start the set-up first: no secret is waiting for a code');
  if (row.enabled_at !== null) throw new AppError('CONFLICT', 'Two-factor sign-in is on already');
  if (!(await takeTotp(db, userId, row.secret, code.trim(), now)))
    throw invalid('code', 'This code is not right: type the 6 digits your app shows now');
  await db.updateTable('dashboard_two_factor').set({ enabled_at: now }).where('user_id', '=', userId).execute();
  await db.deleteFrom('dashboard_recovery_codes').where('user_id', '=', userId).execute();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db
    .insertInto('dashboard_recovery_codes')
    .values(
      codes.map((c) => ({
        code_hash: hashToken(normalRecoveryCode(c)),
        user_id: userId,
        created_at: now,
        used_at: null,
      })),
    )
    .execute();
  return codes;
}

/**
 * Checks a second factor: a TOTP code not used before (`totp`), or an unused recovery code, used up here
 * (`recovery`); undefined when neither. Single use holds under concurrency: each is taken by a conditional update.
 */
export async function checkSecondFactor(
  db: Db,
  userId: string,
  code: string,
  now: number,
): Promise<'totp' | 'recovery' | undefined> {
  const row = await db
    .selectFrom('dashboard_two_factor')
    .select(['secret', 'enabled_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (row?.enabled_at == null) return undefined;
  const typed = code.trim();
  if (/^\d{6}$/.test(typed)) return (await takeTotp(db, userId, row.secret, typed, now)) ? 'totp' : undefined;
  const res = await db
    .updateTable('dashboard_recovery_codes')
    .set({ used_at: now })
    .where('code_hash', '=', hashToken(normalRecoveryCode(typed)))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1 ? 'recovery' : undefined;
}

/** Turns two-factor off: the secret, recovery codes and pending sign-ins go. */
export async function removeTwoFactor(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('dashboard_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('dashboard_pending_sign_ins').where('user_id', '=', userId).execute();
  await db.deleteFrom('dashboard_two_factor').where('user_id', '=', userId).execute();
}

/** A sign-in whose password was right, awaiting its code: a token for the second request, stored hashed. */
export async function createPendingSignIn(db: Db, userId: string, now: number): Promise<string> {
  const token = `tf_${secretToken(32)}`;
  await db.deleteFrom('dashboard_pending_sign_ins').where('expires_at', '<=', now).execute();
  await db
    .insertInto('dashboard_pending_sign_ins')
    .values({ token_hash: hashToken(token), user_id: userId, expires_at: now + PENDING_SIGN_IN_MS })
    .execute();
  return token;
}

/** The user of a pending sign-in, or undefined when the token is unknown, used or expired. */
export async function findPendingSignIn(db: Db, token: string, now: number): Promise<string | undefined> {
  if (!/^tf_[\w-]{20,100}$/.test(token)) return undefined;
  const row = await db
    .selectFrom('dashboard_pending_sign_ins')
    .select(['user_id', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  return row && Number(row.expires_at) > now ? row.user_id : undefined;
}

/** Uses a pending sign-in up; false when another request did first. */
export async function consumePendingSignIn(db: Db, token: string): Promise<boolean> {
  const res = await db
    .deleteFrom('dashboard_pending_sign_ins')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** Merchants whose owner requires two-factor of every member. */
export async function requiresTwoFactor(db: Db, merchantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('merchant_two_factor_requirements')
    .select('merchant_id')
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Of these merchants, those whose owner requires two-factor of every member. */
export async function merchantsRequiringTwoFactor(db: Db, merchantIds: readonly string[]): Promise<Set<string>> {
  if (merchantIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('merchant_two_factor_requirements')
    .select('merchant_id')
    .where('merchant_id', 'in', merchantIds)
    .execute();
  return new Set(rows.map((r) => r.merchant_id));
}

export async function setTwoFactorRequired(db: Db, merchantId: string, required: boolean, now: number) {
  await db.deleteFrom('merchant_two_factor_requirements').where('merchant_id', '=', merchantId).execute();
  if (required)
    await db
      .insertInto('merchant_two_factor_requirements')
      .values({ merchant_id: merchantId, created_at: now })
      .execute();
}

/**
 * Turns two-factor off for the signed-in user given proof that they are its holder: a current code (or a recovery
 * code), or their password. Each try counts against the account's sign-in limit like a sign-in, so neither can be
 * guessed here. `audit` runs in the transaction of the change.
 */
export async function disableTwoFactor(
  db: Db,
  o: { userId: string; code?: string | undefined; password?: string | undefined; now: number },
  audit: (trx: Db) => Promise<void>,
): Promise<void> {
  const user = await getUser(db, o.userId);
  if (!user) throw new AppError('UNAUTHORIZED', 'Not signed in, or your session expired: sign in again');
  if (!(await hasTwoFactor(db, user.id))) throw new AppError('CONFLICT', 'Two-factor sign-in is off already');
  const key = accountKey(user.email);
  const wait = await countAttempt(db, key, MAX_FAILURES_PER_ACCOUNT, o.now);
  if (wait > 0) {
    await forgiveAttempt(db, key);
    throw new AppError('RATE_LIMITED', 'Too many wrong codes or passwords for this account. Try again later.', {
      retryAfter: wait,
    });
  }
  await db.transaction().execute(async (trx) => {
    const proven =
      o.code !== undefined
        ? (await checkSecondFactor(trx, user.id, o.code, o.now)) !== undefined
        : await verifyPassword(o.password ?? '', user.password_hash);
    if (!proven)
      throw o.code !== undefined
        ? invalid('code', 'This code is not right, or was used already')
        : invalid('password', 'Not your current password');
    await removeTwoFactor(trx, user.id);
    await audit(trx);
  });
  await forgiveAttempt(db, key);
}
