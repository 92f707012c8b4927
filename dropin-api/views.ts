import type { ApiDeps } from '../api-kit/deps.js';
import { paymentUriInput } from '../api-kit/payment-views.js';
import { assetTicker, networkName } from '../core/catalog/asset-label.js';
import type { Checkout } from '../core/checkout/checkout.js';
import { pageToken } from '../core/checkout/page-token.js';
import { iso, isoOrNull } from '../core/clock.js';
import { fromUnits } from '../core/money/decimal.js';
import { confirmationProgress } from '../core/payments/deposits.js';
import { actuallyPaidText, type Payment, payAmountText } from '../core/payments/payment.js';
import { paymentUris } from '../core/qr/payment-uri.js';
import { qrPngDataUrl } from '../core/qr/png.js';
import { walletView } from './wallet-view.js';

/** The hosted-page session token of a payment: what `/pay/{id}?t=...` hands to the page. */
export function hostedToken(deps: ApiDeps, paymentId: string): string {
  return `pt_${paymentId}.${pageToken(paymentId, deps.settings.pageSecret)}`;
}

/**
 * What a payment's QR (and a browser wallet) should ask for now: the whole amount, or, once partly paid, what is
 * left, so paying again never pays the whole amount twice. The payment with that amount as its `pay_amount_units`.
 */
function dueNow(p: Payment): Payment {
  const due = BigInt(p.pay_amount_units);
  const paid = BigInt(p.actually_paid_units);
  return paid > 0n && paid < due ? { ...p, pay_amount_units: (due - paid).toString() } : p;
}

/** The QR image of a payment URI, rendered once for each URI a caller sees in turn (`render` keeps the last). */
export function qrRenderer(): (uri: string) => string {
  let last = { uri: '', image: '' };
  return (uri) => {
    if (uri !== last.uri) last = { uri, image: qrPngDataUrl(uri) };
    return last.image;
  };
}

/**
 * The payment as the popup shows it and hands to the merchant's callbacks, and no more: what the catalog says
 * about the asset (its name, precision, icon) is in GET /currencies, its ticker and network as people name them are
 * here (core/catalog/asset-label.ts), the merchant API has the rest. Exact amounts
 * as decimal strings (a JSON number would reach the browser as a double and could print as 1e-7; these are the
 * same digits as the merchant API and the QR), the QR image as the server's 1-bit PNG data URL (no QR encoder ships
 * to the browser), confirmations and what is left. `qrImage` renders the URI's image (a stream keeps the last one).
 */
export async function checkoutPaymentView(deps: ApiDeps, p: Payment, qrImage: (uri: string) => string = qrPngDataUrl) {
  const due = BigInt(p.pay_amount_units);
  const paid = BigInt(p.actually_paid_units);
  // One input for the QR's URI and the wallet's transaction: they ask for the same transfer.
  const asked = paymentUriInput(deps.catalog, dueNow(p));
  const uri = paymentUris(asked).amountPayload;
  return {
    payment_id: p.id,
    payment_status: p.status,
    sequence: p.sequence,
    price_amount: p.price_amount,
    price_currency: p.price_currency,
    pay_amount: payAmountText(p),
    pay_currency: p.pay_currency,
    network: p.network,
    // The asset as the customer's wallet names it ("USDT" on "Ethereum"): what the popup prints, by the one rule the
    // dashboard uses too; the codes above stay the identifiers.
    ticker: assetTicker(p.pay_currency),
    network_name: networkName(p.network),
    pay_address: p.pay_address,
    extra_id: p.extra_id,
    actually_paid: actuallyPaidText(p),
    remaining_amount: fromUnits(paid >= due ? 0n : due - paid, p.decimals),
    confirmations: await confirmationProgress(deps.db, deps.chains, p),
    order_id: p.order_id,
    // What is being bought, in the merchant's words: the hosted page shows it to the customer.
    order_description: p.order_description,
    expires_at: iso(p.expires_at),
    confirmed_at: isoOrNull(p.confirmed_at),
    qr: { payment_uri: uri, code_url: qrImage(uri) },
    success_url: p.success_url,
    cancel_url: p.cancel_url,
    wallet: paid < due ? walletView(deps, p, asked) : null,
  };
}

export type CheckoutPaymentView = Awaited<ReturnType<typeof checkoutPaymentView>>;

/**
 * The checkout (what is being bought, from whom) as the popup's header shows it, and nothing else: not the token,
 * nor the customer's details or the merchant's reference, which the popup does not show.
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
