import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { networkName } from '../catalog/asset-label.js';
import { iso } from '../clock.js';
import { secretToken } from '../ids.js';
import { customerStrings, type MailLocale } from '../mail/customer-strings.js';
import { enqueueMail } from '../mail/outbox.js';
import { renderMail } from '../mail/render.js';
import { fromUnits } from '../money/decimal.js';
import type { Database } from '../store/schema.js';
import type { Refund } from './refund.js';

/*
 * Claim links (issue 30 item 2): a refund created without an address asks the customer for one through a single-use
 * link to a hosted page. The token carries 256 random bits and only its SHA-256 is stored (as session tokens and API
 * keys), so a store read gives no working link; the merchant sees the link once, when it is made.
 */

/** How long a claim link stays usable, in hours: 7 days unless the merchant asks otherwise, within 1 hour and 30 days. */
export const CLAIM_HOURS = { default: 168, min: 1, max: 720 } as const;

/** A claim link's token as `newClaimToken` makes it (32 random bytes, base64url): anything else is not looked up. */
export const CLAIM_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export function hashClaimToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newClaimToken(): string {
  return secretToken(32);
}

/** The claim page's address, from PUBLIC_URL only (never a request's Host). */
export function claimUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/refund/${token}`;
}

/** What the merchant asked for with a claim link: its lifetime and whether the customer gets it by e-mail. */
export interface ClaimRequest {
  token: string;
  hours: number;
  notify: boolean;
  publicUrl: string;
}

/** The claim link the merchant sees once: its address, expiry and whether a mail to the customer was queued. */
export interface IssuedClaim {
  url: string;
  expires_at: string;
  emailed: boolean;
}

export function issuedClaim(c: ClaimRequest, expiresAt: number, emailed: boolean): IssuedClaim {
  return { url: claimUrl(c.publicUrl, c.token), expires_at: iso(expiresAt), emailed };
}

/** A claim link's columns for a refund row: the token's hash and its expiry. */
export function claimColumns(c: ClaimRequest, now: number) {
  return { claim_token_hash: hashClaimToken(c.token), claim_expires_at: now + c.hours * 3_600_000 };
}

/**
 * Writes the customer's mail with the claim link, in the transaction that made the link (the outbox rule: it exists
 * if and only if the link does), in the locale the customer paid in. Nothing when the payment has no customer
 * address or the merchant asked for no mail. Amounts are the API's exact digits.
 */
export async function mailClaimLink(
  trx: Kysely<Database>,
  r: Refund,
  c: ClaimRequest,
  expiresAt: number,
  now: number,
): Promise<boolean> {
  if (!c.notify) return false;
  const [payment, merchant, localeRow] = await Promise.all([
    trx.selectFrom('payments').select('customer_email').where('id', '=', r.payment_id).executeTakeFirst(),
    trx.selectFrom('merchants').select('name').where('id', '=', r.merchant_id).executeTakeFirst(),
    trx.selectFrom('payment_mail_locales').select('locale').where('payment_id', '=', r.payment_id).executeTakeFirst(),
  ]);
  if (!payment?.customer_email) return false;
  const locale = (localeRow?.locale ?? 'en') as MailLocale;
  const t = customerStrings[locale] ?? customerStrings.en;
  const name = merchant?.name ?? '';
  const fill = (s: string) => s.replaceAll('{merchant}', name);
  const url = claimUrl(c.publicUrl, c.token);
  const content = renderMail({
    subject: fill(t.refundSubject),
    lang: locale,
    blocks: [
      { p: fill(t.refundIntro) },
      {
        rows: [
          [t.merchant, name],
          [t.payment, r.payment_id],
          [t.amount, `${fromUnits(BigInt(r.amount_units), r.decimals)} ${r.asset.toUpperCase()}`],
          [t.network, networkName(r.network)],
          [t.validUntil, `${iso(expiresAt).replace('T', ' ').slice(0, 16)} UTC`],
        ],
      },
      { button: { label: t.refundAction, url } },
    ],
    footer: fill(t.footer),
  });
  const id = await enqueueMail(
    trx,
    {
      merchantId: r.merchant_id,
      kind: 'refund_claim',
      to: payment.customer_email,
      asMerchant: true,
      ...content,
      dedupeKey: `refund_claim:${r.id}:${hashClaimToken(c.token).slice(0, 16)}`,
    },
    now,
  );
  return id !== null;
}
