import type { ApiDeps } from '../api-kit/deps.js';
import { pageToken } from '../api-kit/page-token.js';
import { paymentQr } from '../api-kit/payment-views.js';
import { iso, isoOrNull } from '../core/clock.js';
import { fromUnits } from '../core/money/decimal.js';
import { actuallyPaidText, type Payment, payAmountText } from '../core/payments/payment.js';
import type { Checkout } from './context.js';
import { qrPngDataUrl } from './qr-png.js';

/** The hosted-page session token of a payment: what `/pay/{id}?t=...` hands to the page. */
export function hostedToken(deps: ApiDeps, paymentId: string): string {
  return `pt_${paymentId}.${pageToken(paymentId, deps.settings.pageSecret)}`;
}

/**
 * Confirmations of the deposits still short of the required count (the least confirmed one), so the popup can
 * say "1 of 2". All confirmed, or finished: the required count; nothing seen yet: 0.
 */
async function confirmations(deps: ApiDeps, p: Payment): Promise<{ count: number; required: number }> {
  const key = deps.chains.chainKeyOf(p);
  const required = deps.chains.requiredConfirmations(key);
  if (p.status === 'finished') return { count: required, required };
  const deposits = await deps.db
    .selectFrom('deposits')
    .select(['block_height'])
    .where('payment_id', '=', p.id)
    .where('removed', '=', 0)
    .where('late', '=', 0)
    .execute();
  if (deposits.length === 0) return { count: 0, required };
  const head = (await deps.chains.headOf(key)) ?? 0;
  let least = required;
  for (const d of deposits) {
    const n = d.block_height === null ? 0 : Math.max(0, head - d.block_height + 1);
    least = Math.min(least, n);
  }
  return { count: least, required };
}

/**
 * The payment as the popup shows it and hands to the merchant's callbacks, and no more: what the catalog says
 * about the asset (its name, precision, icon) is in GET /currencies, the merchant API has the rest, and every
 * byte here counts against the popup's 15 KB to the QR. Exact amounts as decimal strings (a JSON number would reach the browser as a
 * double and could print as 1e-7; these are the same digits as the merchant API and the QR),
 * the QR image as the server's data URL (no QR encoder ships to the browser; a 1-bit PNG, the smallest form),
 * confirmations and what is left.
 */
export async function checkoutPaymentView(deps: ApiDeps, p: Payment) {
  const asset = deps.catalog.get(p.pay_currency);
  if (!asset) throw new Error(`asset ${p.pay_currency} left the catalog`);
  const due = BigInt(p.pay_amount_units);
  const paid = BigInt(p.actually_paid_units);
  // Partly paid: the QR and wallet link ask for what is left, so scanning again never pays the whole amount twice.
  const left = paid >= due ? 0n : due - paid;
  const qr = paymentQr(paid > 0n && left > 0n ? { ...p, pay_amount_units: left.toString() } : p, asset);
  return {
    payment_id: p.id,
    payment_status: p.status,
    sequence: p.sequence,
    price_amount: p.price_amount,
    price_currency: p.price_currency,
    pay_amount: payAmountText(p),
    pay_currency: p.pay_currency,
    network: p.network,
    pay_address: p.pay_address,
    extra_id: p.extra_id,
    actually_paid: actuallyPaidText(p),
    remaining_amount: fromUnits(left, p.decimals),
    confirmations: await confirmations(deps, p),
    order_id: p.order_id,
    expires_at: iso(p.expires_at),
    confirmed_at: isoOrNull(p.confirmed_at),
    qr: { payment_uri: qr.amount_payload, code_url: qrPngDataUrl(qr.amount_payload) },
    success_url: p.success_url,
    cancel_url: p.cancel_url,
  };
}

export type CheckoutPaymentView = Awaited<ReturnType<typeof checkoutPaymentView>>;

/**
 * The checkout (what is being bought, from whom) as the popup's header shows it, and nothing else: not the token,
 * nor the customer's details or the merchant's reference, which the popup does not show. Every byte here counts
 * against the popup's 15 KB to the QR.
 */
export function checkoutView(x: Checkout) {
  const { price_amount, price_currency } = x.kind === 'session' ? x.session : x.payment;
  return {
    test_mode: x.merchant.mode === 'test',
    merchant_name: x.merchant.name,
    amount: price_amount,
    currency: price_currency,
  };
}

/** The payment a checkout currently shows, if any. */
export async function currentPayment(deps: ApiDeps, x: Checkout): Promise<Payment | null> {
  if (x.kind === 'hosted') return x.payment;
  if (!x.session.payment_id) return null;
  return (
    (await deps.db.selectFrom('payments').selectAll().where('id', '=', x.session.payment_id).executeTakeFirst()) ?? null
  );
}
