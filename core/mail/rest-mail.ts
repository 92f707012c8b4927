import type { Kysely } from 'kysely';
import type { Payment } from '../payments/payment.js';
import type { Database } from '../store/schema.js';
import { customerMailBasis } from './customer-mails.js';
import { renderMail } from './render.js';
import { restStrings } from './rest-strings.js';

/** A deadline as every locale reads it unambiguously: `2026-12-01 12:00 UTC`. */
const deadlineText = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The customer's mail when the merchant asks for the rest of a partly paid payment (core/payments/ask-rest.ts): the
 * exact remainder (the API's digits), the deadline and the hosted link, in the payment's checkout locale, in the
 * caller's transaction. Sent under the merchant's "underpaid" switch, once per deadline; never to a seller's own
 * address (a counter sale without a customer e-mail), like the other customer mails (core/mail/customer-mails.ts).
 */
export async function enqueueRestMail(trx: Kysely<Database>, p: Payment, now: number): Promise<void> {
  const c = await customerMailBasis(trx, p, (settings) => settings.underpaid);
  if (!c) return;
  const { name, locale, t, amount, hosted } = c;
  const r = restStrings[locale] ?? restStrings.en;
  const fill = (s: string) => s.replaceAll('{merchant}', name).replaceAll('{deadline}', deadlineText(p.expires_at));
  const rows = c.paymentRows({ description: false });
  rows.push(
    [t.due, amount(BigInt(p.pay_amount_units) - BigInt(p.actually_paid_units))],
    [r.deadline, deadlineText(p.expires_at)],
  );
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
  await c.enqueue('rest_requested', content, `rest:${p.id}:${p.expires_at}`, now);
}
