import type { Catalog } from '../core/catalog/catalog.js';
import { pageToken } from '../core/checkout/page-token.js';
import { iso, isoOrNull } from '../core/clock.js';
import { Decimal } from '../core/money/decimal.js';
import {
  actuallyPaidText,
  type Payment,
  payAmountText,
  paymentAsset,
  paymentStateFields,
} from '../core/payments/payment.js';
import { qrSvgDataUrl } from '../core/qr/encode.js';
import { type PaymentUriInput, type PaymentUris, paymentUris } from '../core/qr/payment-uri.js';
import type { directPaymentSchema, paymentLinkSchema, paymentStatusViewSchema, ViewOf } from './payment-schemas.js';

/**
 * Representations of a payment for the API (API §2.3). One builder per shape; every amount is a `Decimal`
 * so JSON, QR, URI and screen show the same digits.
 */

export const integrationRecommendations = [
  'Display pay_amount, pay_currency, network, pay_address (and extra_id when present) exactly as returned; never round or reformat amounts.',
  'Render the QR code and also show the plain address and amount as copyable text.',
  'Fulfil only after a signed payment.updated webhook or a status read (GET /payments/{payment_id}) shows payment_status finished.',
  'Do not trust browser redirects to success_url or customer screenshots as proof of payment.',
  'Expire the checkout UI at expires_at; if the customer retries after that, create a new payment.',
];

/** The payment URIs of a payment (docs/architecture.md money rules): without the amount, and with it. */
export function paymentUrisOf(catalog: Catalog, p: Payment): PaymentUris {
  return paymentUris(paymentUriInput(catalog, p));
}

/** What a payment's URIs (and a browser wallet's transaction, core/qr/payment-uri.ts evmTransfer) are built from. */
export function paymentUriInput(catalog: Catalog, p: Payment): PaymentUriInput {
  const asset = paymentAsset(catalog, p);
  return {
    family: asset.family,
    network: p.network,
    address: p.pay_address,
    amountText: payAmountText(p),
    units: BigInt(p.pay_amount_units),
    extraId: p.extra_id,
    smartContract: p.smart_contract,
    chainId: asset.chainId,
  };
}

/** The qr group of POST /payments (API §2.3): both URIs and a scalable SVG of each. */
export function paymentQr(catalog: Catalog, p: Payment) {
  const uris = paymentUrisOf(catalog, p);
  return {
    payload: uris.payload,
    amount_payload: uris.amountPayload,
    payment_uri: uris.amountPayload,
    code_url: qrSvgDataUrl(uris.payload),
    amount_code_url: qrSvgDataUrl(uris.amountPayload),
  };
}

/** `hosted_payment_url` carries a signed token (api-kit/page-token.ts): the payment id alone must not open the page. */
export function hostedPaymentUrl(p: Pick<Payment, 'id'>, publicUrl: string, pageSecret?: string): string {
  const token = pageSecret === undefined ? '' : `?t=${pageToken(p.id, pageSecret)}`;
  return `${publicUrl}/pay/${p.id}${token}`;
}

function urls(p: Payment, publicUrl: string, pageSecret?: string) {
  return {
    hosted_payment_url: hostedPaymentUrl(p, publicUrl, pageSecret),
    status_url: `${publicUrl}/api/v1/payments/${p.id}`,
  };
}

/** POST /payments (201): payment, customer, pricing, blockchain, qr, merchant_reference, integration_recommendations. */
export function directPaymentView(
  p: Payment,
  catalog: Catalog,
  publicUrl: string,
  pageSecret?: string,
): ViewOf<typeof directPaymentSchema> {
  const payAmount = new Decimal(payAmountText(p));
  return {
    payment: {
      payment_id: p.id,
      invoice_id: p.invoice_id,
      purchase_id: p.purchase_id,
      payment_status: p.status,
      status_detail: p.status_detail,
      ...urls(p, publicUrl, pageSecret),
      success_url: p.success_url ?? '',
      cancel_url: p.cancel_url ?? '',
      created_at: iso(p.created_at),
      expires_at: iso(p.expires_at),
      valid_until: iso(p.valid_until),
      confirmed_at: isoOrNull(p.confirmed_at),
    },
    customer: { name: p.customer_name ?? '', email: p.customer_email },
    pricing: {
      price_amount: new Decimal(p.price_amount),
      price_currency: p.price_currency,
      pay_amount: payAmount,
      pay_currency: p.pay_currency,
      actually_paid: p.status === 'waiting' && p.actually_paid_units === '0' ? null : new Decimal(actuallyPaidText(p)),
      is_fixed_rate: p.is_fixed_rate === 1,
      is_fee_paid_by_user: p.is_fee_paid_by_user === 1,
    },
    blockchain: {
      pay_address: p.pay_address,
      pay_amount: payAmount,
      pay_currency: p.pay_currency,
      network: p.network,
      extra_id: p.extra_id,
      smart_contract: p.smart_contract,
      network_precision: p.precision,
    },
    qr: paymentQr(catalog, p),
    merchant_reference: { order_id: p.order_id ?? '', order_description: p.order_description ?? '' },
    integration_recommendations: integrationRecommendations,
  };
}

/** POST /payment-links (201): payment, customer, pricing, blockchain, timing, additional_info. */
export function paymentLinkView(p: Payment, publicUrl: string, pageSecret?: string): ViewOf<typeof paymentLinkSchema> {
  return {
    payment: {
      payment_id: p.id,
      purchase_id: p.purchase_id,
      invoice_id: p.invoice_id,
      payment_status: p.status,
      type: 'payment_link',
      product: 'hosted_checkout',
      hosted_payment_url: urls(p, publicUrl, pageSecret).hosted_payment_url,
      payer_name: p.customer_name ?? '',
      payer_email: p.customer_email,
      success_url: p.success_url ?? '',
      cancel_url: p.cancel_url ?? '',
    },
    customer: { name: p.customer_name ?? '', email: p.customer_email },
    pricing: {
      price_amount: new Decimal(p.price_amount),
      price_currency: p.price_currency,
      pay_amount: new Decimal(payAmountText(p)),
      pay_currency: p.pay_currency,
      amount_received: new Decimal(actuallyPaidText(p)),
      is_fixed_rate: p.is_fixed_rate === 1,
      is_fee_paid_by_user: p.is_fee_paid_by_user === 1,
    },
    blockchain: {
      pay_address: p.pay_address,
      network: p.network,
      smart_contract: p.smart_contract,
      burning_percent: null,
      network_precision: p.precision,
    },
    timing: {
      created_at: iso(p.created_at),
      updated_at: iso(p.updated_at),
      expiration_estimate_date: iso(p.expires_at),
      valid_until: iso(p.valid_until),
      time_limit: p.time_limit,
    },
    additional_info: {
      order_id: p.order_id,
      order_description: p.order_description,
      payin_extra_id: p.extra_id,
      customer_name: p.customer_name,
      customer_email: p.customer_email,
      ipn_callback_url: p.ipn_callback_url ?? '',
      success_url: p.success_url ?? '',
      cancel_url: p.cancel_url ?? '',
      origin_ip: p.origin_ip ?? '',
    },
  };
}

/** GET /payments/{id} (API §2.3 status representation) plus lifecycle fields useful for reconciliation. */
export function paymentStatusView(p: Payment): ViewOf<typeof paymentStatusViewSchema> {
  return {
    ...paymentStateFields(p),
    created_at: iso(p.created_at),
    expires_at: iso(p.expires_at),
    valid_until: iso(p.valid_until),
  };
}
