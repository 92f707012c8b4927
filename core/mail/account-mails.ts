import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { enqueueMail } from './outbox.js';
import { type MailContent, renderMail } from './render.js';

/*
 * Mails to dashboard users: invitations, password resets and security notices. They come from the service itself
 * (MAIL_FROM), in English like the dashboard. Links are built from PUBLIC_URL only; a set-password link's token is
 * the one thing of value a mail carries, single-use and short-lived (core/users/password-tokens.ts).
 */

const FOOTER = 'Sent by the payments service of this shop. You cannot reply to this message.';

/** The dashboard's set-password page with a one-time token, as the admin CLI and the Users page build it. */
export function setPasswordUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/dashboard/set-password#token=${token}`;
}

/** What a one-time link becomes in the stored mail once it was sent (or failed for good). */
export const LINK_REMOVED = '[link removed after sending]';

/** Links whose token is stored hashed elsewhere: a dashboard set-password link, a refund's claim link. */
const oneTimeLink = /https?:\/\/[^\s"'<>]*\/(?:dashboard\/set-password#token=|refund\/)[\w-]+/g;

/**
 * A mail body without its one-time links: the outbox keeps sent mail for the log, and a usable link whose token the
 * store otherwise keeps only hashed must not sit there in clear for a month. The relay already has the mail; the
 * log still shows what was sent.
 */
export function withoutOneTimeLinks(body: string): string {
  return body.replace(oneTimeLink, LINK_REMOVED);
}

export function invitationMail(o: { merchantName: string; role: string; url: string; hours: number }): MailContent {
  return renderMail({
    subject: `You are invited to the ${o.merchantName} dashboard`,
    blocks: [
      { p: `You were given the ${o.role} role in the payments dashboard of ${o.merchantName}.` },
      { p: `Choose your password to sign in. This link works once, for ${o.hours} hours.` },
      { button: { label: 'Set your password', url: o.url } },
      { p: 'If you did not expect this, ignore this message: nothing happens until the link is used.' },
    ],
    footer: FOOTER,
  });
}

export function passwordResetMail(o: { url: string; minutes: number }): MailContent {
  return renderMail({
    subject: 'Reset your dashboard password',
    blocks: [
      { p: 'Someone asked to reset the password of the dashboard account of this address.' },
      { p: `Choose a new password with this link. It works once, for ${o.minutes} minutes.` },
      { button: { label: 'Choose a new password', url: o.url } },
      { p: 'If it was not you, ignore this message: your password stays as it is.' },
    ],
    footer: FOOTER,
  });
}

export type SecurityNotice =
  | { kind: 'password_changed' }
  | { kind: 'two_factor_disabled' }
  | { kind: 'api_key_created'; merchantName: string; keyKind: string; label: string | null }
  | { kind: 'new_client_address'; address: string };

export function securityNoticeMail(n: SecurityNotice, at: number, publicUrl: string): MailContent {
  const when = new Date(at).toISOString().replace('T', ' ').slice(0, 16);
  const notYou = {
    p: 'If this was not you, sign in and change your password now, and ask an owner to check the audit log.',
  };
  const signIn = { button: { label: 'Open the dashboard', url: `${publicUrl}/dashboard/` } };
  switch (n.kind) {
    case 'password_changed':
      return renderMail({
        subject: 'Your dashboard password was changed',
        blocks: [{ p: `The password of your dashboard account was changed at ${when} UTC.` }, notYou, signIn],
        footer: FOOTER,
      });
    case 'two_factor_disabled':
      return renderMail({
        subject: 'Two-factor sign-in was turned off',
        blocks: [{ p: `Two-factor sign-in was turned off for your dashboard account at ${when} UTC.` }, notYou, signIn],
        footer: FOOTER,
      });
    case 'api_key_created':
      return renderMail({
        subject: `A new API key was created for ${n.merchantName}`,
        blocks: [
          {
            p: `A new ${n.keyKind} API key${n.label ? ` (“${n.label}”)` : ''} was created for ${n.merchantName} from your account at ${when} UTC. The key itself is never sent by mail.`,
          },
          notYou,
          signIn,
        ],
        footer: FOOTER,
      });
    case 'new_client_address':
      return renderMail({
        subject: 'New sign-in to your dashboard account',
        blocks: [
          {
            p: `Your dashboard account was signed in to at ${when} UTC from an address not seen before: ${n.address}.`,
          },
          notYou,
          signIn,
        ],
        footer: FOOTER,
      });
  }
}

/** Enqueues a security notice to a user, in the transaction of the change it tells about. */
export async function enqueueSecurityNotice(
  trx: Kysely<Database>,
  o: { to: string; notice: SecurityNotice; publicUrl: string },
  now: number,
): Promise<void> {
  const m = securityNoticeMail(o.notice, now, o.publicUrl);
  await enqueueMail(trx, { merchantId: null, kind: `notice.${o.notice.kind}`, to: o.to, ...m }, now);
}

/**
 * Notes the client address of a sign-in; true when the user has signed in before but never from it (worth a
 * notice). A user's very first sign-in is not news. Stored as a SHA-256 so the table is no address book.
 */
export async function noteClientAddress(
  trx: Kysely<Database>,
  userId: string,
  address: string,
  now: number,
): Promise<boolean> {
  const hash = createHash('sha256').update(address).digest('hex');
  const res = await trx
    .insertInto('dashboard_known_clients')
    .values({ user_id: userId, address_hash: hash, first_seen_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'address_hash']).doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
  const seen = await trx
    .selectFrom('dashboard_known_clients')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(seen?.n ?? 0) > 1;
}
