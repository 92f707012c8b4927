import type { Kysely } from 'kysely';
import { passwordResetMail, setPasswordUrl } from '../mail/account-mails.js';
import { enqueueMail } from '../mail/outbox.js';
import type { Database } from '../store/schema.js';
import { issuePasswordToken } from './password-tokens.js';
import { findUserByEmail, normalEmail } from './users.js';

/** A reset link works for this long: a mailbox is a weaker lock than a password, so not the invitation's day. */
export const RESET_LINK_TTL_MS = 30 * 60 * 1000;
/** Reset mails to one address per hour: more would let anyone flood someone's mailbox through us. */
export const RESETS_PER_ADDRESS_PER_HOUR = 3;

/**
 * "Forgot password?": mails an active user a one-time set-password link (stored hashed, voiding earlier links, 30
 * minutes), in one transaction with the mail. The password stays until the link is used, so asking for a reset
 * locks nobody out. Returns whether a mail was written; the caller answers the same either way.
 */
export async function requestPasswordReset(
  deps: { db: Kysely<Database>; settings: { publicUrl: string } },
  email: string,
  now: number,
): Promise<boolean> {
  const address = normalEmail(email);
  const user = await findUserByEmail(deps.db, address);
  if (user?.active !== 1) return false;
  const recent = await deps.db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('to_address', '=', user.email)
    .where('kind', '=', 'password_reset')
    .where('created_at', '>', now - 3_600_000)
    .executeTakeFirst();
  if (Number(recent?.n ?? 0) >= RESETS_PER_ADDRESS_PER_HOUR) return false;
  return deps.db.transaction().execute(async (trx) => {
    const token = await issuePasswordToken(trx, user.id, now, RESET_LINK_TTL_MS);
    const m = passwordResetMail({
      url: setPasswordUrl(deps.settings.publicUrl, token),
      minutes: RESET_LINK_TTL_MS / 60_000,
    });
    return (await enqueueMail(trx, { merchantId: null, kind: 'password_reset', to: user.email, ...m }, now)) !== null;
  });
}
