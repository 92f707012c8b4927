import type { Kysely } from 'kysely';
import { pageToken } from '../checkout/page-token.js';
import { fromUnits } from '../money/decimal.js';
import type { Payment } from '../payments/payment.js';
import { isSellerAddressedSale } from '../pos/store.js';
import type { Database } from '../store/schema.js';
import { getSetting } from '../store/settings.js';
import { PUBLIC_URL_SETTING } from './customer-mails.js';
import { customerStrings, type MailLocale } from './customer-strings.js';
import { enqueueMail } from './outbox.js';
import { renderMail } from './render.js';
import { restStrings } from './rest-strings.js';
import { getMailSettings } from './settings.js';

/** A deadline as every locale reads it unambiguously: `2026-12-01 12:00 UTC`. */
const deadlineText = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The customer's mail when the merchant asks for the rest of a partly paid payment (core/payments/ask-rest.ts): the
 * exact remainder (the API's digits), the deadline and the hosted link, in the payment's checkout locale, in the
 * caller's transaction. Sent under the merchant's "underpaid" switch, once per deadline; never to a seller's own
 * address (a counter sale without a customer e-mail), like the other customer mails (core/mail/customer-mails.ts).
 */
export async function enqueueRestMail(trx: Kysely<Database>, p: Payment, now: number): Promise<void> {
  if (await isSellerAddressedSale(trx, p.id, p.customer_email)) return;
  const settings = await getMailSettings(trx, p.merchant_id);
  if (!settings.underpaid) return;
  const [merchant, localeRow, publicUrl, secret] = await Promise.all([
    trx.selectFrom('merchants').select('name').where('id', '=', p.merchant_id).executeTakeFirst(),
    trx.selectFrom('payment_mail_locales').select('locale').where('payment_id', '=', p.id).executeTakeFirst(),
    getSetting(trx, PUBLIC_URL_SETTING),
    getSetting(trx, 'page_secret'),
  ]);
  const name = merchant?.name ?? '';
  const locale = (localeRow?.locale ?? 'en') as MailLocale;
  const t = customerStrings[locale] ?? customerStrings.en;
  const r = restStrings[locale] ?? restStrings.en;
  const fill = (s: string) => s.replaceAll('{merchant}', name).replaceAll('{deadline}', deadlineText(p.expires_at));
  const asset = p.pay_currency.toUpperCase();
  const amount = (units: bigint) => `${fromUnits(units, p.decimals)} ${asset}`;
  const paid = BigInt(p.actually_paid_units);
  const rows: [string, string][] = [[t.merchant, name]];
  if (p.order_id) rows.push([t.order, p.order_id]);
  rows.push(
    [t.payment, p.id],
    [t.amount, amount(BigInt(p.pay_amount_units))],
    [t.paid, amount(paid)],
    [t.due, amount(BigInt(p.pay_amount_units) - paid)],
    [r.deadline, deadlineText(p.expires_at)],
  );
  const hosted = publicUrl && secret ? `${publicUrl}/pay/${p.id}?t=${pageToken(p.id, secret)}` : null;
  const content = renderMail({
    subject: fill(r.subject),
    lang: locale,
    blocks: [
      { p: fill(r.intro) },
      { rows },
      ...(hosted ? [{ button: { label: t.underpaidAction, url: hosted } }] : []),
    ],
    footer: fill(t.footer),
  });
  await enqueueMail(
    trx,
    {
      merchantId: p.merchant_id,
      kind: 'rest_requested',
      to: p.customer_email,
      asMerchant: true,
      ...content,
      dedupeKey: `rest:${p.id}:${p.expires_at}`,
    },
    now,
  );
}
