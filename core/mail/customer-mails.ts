import type { Kysely } from 'kysely';
import { pageToken } from '../checkout/page-token.js';
import { fromUnits } from '../money/decimal.js';
import type { Payment } from '../payments/payment.js';
import { isSellerAddressedSale } from '../pos/store.js';
import type { Database } from '../store/schema.js';
import { getSetting } from '../store/settings.js';
import { customerStrings, type MailLocale, pickMailLocale } from './customer-strings.js';
import { explorerLinks } from './explorers.js';
import { enqueueMail } from './outbox.js';
import { renderMail } from './render.js';
import { getMailSettings, type MailSettings } from './settings.js';

/** Where PUBLIC_URL is kept for links built inside a payment change's transaction (written at every start). */
export const PUBLIC_URL_SETTING = 'mail_public_url';

const fill = (s: string, merchant: string) => s.replaceAll('{merchant}', merchant);

/** Remembers the checkout locale a customer chose a payment in (the drop-in's Accept-Language), for its mails. */
export async function rememberMailLocale(
  db: Kysely<Database>,
  paymentId: string,
  acceptLanguage: string | undefined,
): Promise<void> {
  await db
    .insertInto('payment_mail_locales')
    .values({ payment_id: paymentId, locale: pickMailLocale(acceptLanguage) })
    .onConflict((oc) => oc.column('payment_id').doNothing())
    .execute();
}

/**
 * Writes the customer's mail about a payment change, in the change's transaction (core/payments/events.ts): a
 * receipt once finished; the exact remainder and the hosted link to complete while a partly paid payment can still
 * be completed; a note when it expired partly paid (expired with nothing paid sends nothing). Each at most once per
 * payment (and per amount received, for underpaid), and only when the merchant's switch for it is on. Amounts are
 * the API's exact digits (fromUnits of the stored base units); everything typed is escaped by renderMail. A point
 * of sale payment whose e-mail is its seller's own (no customer address given at the till) gets none.
 */
export async function enqueueCustomerMail(trx: Kysely<Database>, p: Payment, now: number): Promise<void> {
  const paid = BigInt(p.actually_paid_units);
  const due = BigInt(p.pay_amount_units) - paid;
  const kind =
    p.status === 'finished'
      ? 'receipt'
      : p.status === 'partially_paid' && due > 0n && p.valid_until > now
        ? 'underpaid'
        : p.status === 'expired' && paid > 0n
          ? 'expired_partly_paid'
          : null;
  if (!kind) return;
  const c = await customerMailBasis(trx, p, (settings) =>
    kind === 'receipt' ? settings.receipts : kind === 'underpaid' ? settings.underpaid : settings.expiredPartlyPaid,
  );
  if (!c) return;
  const [txs, explorer] = await Promise.all([
    trx
      .selectFrom('deposits')
      .select('txid')
      .distinct()
      .where('payment_id', '=', p.id)
      .where('removed', '=', 0)
      .execute(),
    explorerLinks(trx, p),
  ]);
  const { name, locale, t, amount, hosted } = c;
  const rows = c.paymentRows({ description: true });
  if (kind === 'underpaid') rows.push([t.due, amount(due)]);
  // Each transaction links to the chain's explorer where the operator configured one (live chains only).
  for (const tx of txs) {
    const href = explorer(tx.txid);
    rows.push(href ? [t.transaction, tx.txid, href] : [t.transaction, tx.txid]);
  }
  const subject = fill(
    kind === 'receipt' ? t.receiptSubject : kind === 'underpaid' ? t.underpaidSubject : t.expiredSubject,
    name,
  );
  const intro = fill(
    kind === 'receipt' ? t.receiptIntro : kind === 'underpaid' ? t.underpaidIntro : t.expiredIntro,
    name,
  );
  const content = renderMail({
    subject,
    lang: locale,
    blocks: [
      { p: intro },
      { rows },
      ...(kind === 'underpaid' && hosted ? [{ button: { label: t.underpaidAction, url: hosted } }] : []),
    ],
    footer: fill(t.footer, name),
  });
  const dedupeKey = kind === 'underpaid' ? `underpaid:${p.id}:${p.actually_paid_units}` : `${kind}:${p.id}`;
  await c.enqueue(kind, content, dedupeKey, now);
}

/** What every customer mail about a payment starts from (this file's mails and core/mail/rest-mail.ts). */
export interface CustomerMailBasis {
  name: string;
  locale: MailLocale;
  t: (typeof customerStrings)[MailLocale];
  /** An amount in the payment's asset, the API's exact digits. */
  amount: (units: bigint) => string;
  /** The hosted page to complete the payment, when PUBLIC_URL and the page secret are known. */
  hosted: string | null;
  /** Merchant, order (and its description when asked), payment, amount and paid: the head of every table. */
  paymentRows: (o: { description: boolean }) => [string, string, string?][];
  /** Writes the mail, as the merchant, to the payment's customer, once per `dedupeKey`. */
  enqueue: (kind: string, content: ReturnType<typeof renderMail>, dedupeKey: string, now: number) => Promise<void>;
}

/**
 * Reads what a customer mail about `p` needs, or null when it goes to nobody: a counter sale whose e-mail is its
 * seller's own (no customer address given at the till), or the merchant's switch for it (`switchOn`) is off.
 */
export async function customerMailBasis(
  trx: Kysely<Database>,
  p: Payment,
  switchOn: (settings: MailSettings) => boolean,
): Promise<CustomerMailBasis | null> {
  if (await isSellerAddressedSale(trx, p.id, p.customer_email)) return null;
  if (!switchOn(await getMailSettings(trx, p.merchant_id))) return null;
  const [merchant, localeRow, publicUrl, secret] = await Promise.all([
    trx.selectFrom('merchants').select('name').where('id', '=', p.merchant_id).executeTakeFirst(),
    trx.selectFrom('payment_mail_locales').select('locale').where('payment_id', '=', p.id).executeTakeFirst(),
    getSetting(trx, PUBLIC_URL_SETTING),
    getSetting(trx, 'page_secret'),
  ]);
  const name = merchant?.name ?? '';
  const locale = (localeRow?.locale ?? 'en') as MailLocale;
  const t = customerStrings[locale] ?? customerStrings.en;
  const asset = p.pay_currency.toUpperCase();
  const amount = (units: bigint) => `${fromUnits(units, p.decimals)} ${asset}`;
  return {
    name,
    locale,
    t,
    amount,
    hosted: publicUrl && secret ? `${publicUrl}/pay/${p.id}?t=${pageToken(p.id, secret)}` : null,
    paymentRows: ({ description }) => {
      const rows: [string, string, string?][] = [[t.merchant, name]];
      if (p.order_id) rows.push([t.order, p.order_id]);
      if (description && p.order_description) rows.push([t.description, p.order_description]);
      rows.push(
        [t.payment, p.id],
        [t.amount, amount(BigInt(p.pay_amount_units))],
        [t.paid, amount(BigInt(p.actually_paid_units))],
      );
      return rows;
    },
    enqueue: async (kind, content, dedupeKey, now) => {
      await enqueueMail(
        trx,
        { merchantId: p.merchant_id, kind, to: p.customer_email, asMerchant: true, ...content, dedupeKey },
        now,
      );
    },
  };
}
