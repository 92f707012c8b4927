import { z } from 'zod';
import type { Decimal } from '../core/money/decimal.js';
import { fiatCodes } from '../core/money/fiat.js';
import { MAX_REST_DAYS } from '../core/payments/ask-rest.js';
import { paymentStatuses, statusDetails } from '../core/payments/status.js';

/**
 * The shapes of the payment views (payment-views.ts) as zod schemas: the merchant API's OpenAPI document describes
 * its answers with them, and each view builder is typed from its schema (`ViewOf`), so a view and its schema drifting
 * apart fails `tsc`, not only a test.
 */

/**
 * A view as a builder returns it, from the schema of its JSON: an exact amount may still be a `Decimal` (written as a
 * JSON number by core/money/decimal.ts `stringifyJson`) where the schema says number.
 */
export type ViewOf<S extends z.ZodType> = Unsent<z.infer<S>>;
type Unsent<T> = T extends number
  ? number | Decimal
  : T extends readonly (infer U)[]
    ? Unsent<U>[]
    : T extends object
      ? { [K in keyof T]: Unsent<T[K]> }
      : T;

/** An exact amount: a JSON number written with its exact digits, never in exponent form (README "Merchant API"). */
export const amountSchema = z.number().meta({
  description: 'Exact amount: a JSON number with its exact digits; display as returned',
  examples: [0.00153847],
});
export const timestampSchema = z.iso.datetime().meta({ examples: ['2026-11-25T12:00:00.000Z'] });
export const paymentIdSchema = z.string().meta({ examples: ['pay_8fJ2kLq0Zx'] });
export const paymentStatusSchema = z.enum(paymentStatuses);
export const statusDetailSchema = z.enum(statusDetails);

/** A price's currency in answers: ISO 4217, upper case (core/money/fiat.ts). */
export const priceCurrencyOutSchema = z.enum(fiatCodes).meta({ description: 'ISO 4217 code of the price' });
/** The fields every status read and every webhook share (core/payments/payment.ts `paymentStateFields`). */
export const paymentStateShape = {
  payment_id: paymentIdSchema,
  invoice_id: z.string(),
  payment_status: paymentStatusSchema,
  status_detail: statusDetailSchema,
  sequence: z.number().int().meta({ description: 'Grows with every change of the payment' }),
  price_amount: amountSchema,
  price_currency: priceCurrencyOutSchema,
  pay_amount: amountSchema,
  pay_currency: z.string(),
  actually_paid: amountSchema,
  pay_address: z.string(),
  extra_id: z.string().nullable(),
  network: z.string(),
  order_id: z.string().nullable(),
  confirmed_at: timestampSchema.nullable(),
  updated_at: timestampSchema,
};

export const paymentStatusViewSchema = z.strictObject({
  ...paymentStateShape,
  created_at: timestampSchema,
  expires_at: timestampSchema,
  valid_until: timestampSchema,
});

export const paymentListSchema = z.strictObject({
  payments: z.array(paymentStatusViewSchema),
  next_cursor: z.string().nullable(),
});

export const customerSchema = z.strictObject({ name: z.string(), email: z.string() });

export const directPaymentSchema = z.strictObject({
  payment: z.strictObject({
    payment_id: paymentIdSchema,
    invoice_id: z.string(),
    purchase_id: z.string(),
    payment_status: paymentStatusSchema,
    status_detail: statusDetailSchema,
    hosted_payment_url: z.string(),
    status_url: z.string(),
    success_url: z.string(),
    cancel_url: z.string(),
    created_at: timestampSchema,
    expires_at: timestampSchema,
    valid_until: timestampSchema,
    confirmed_at: timestampSchema.nullable(),
  }),
  customer: customerSchema,
  pricing: z.strictObject({
    price_amount: amountSchema,
    price_currency: priceCurrencyOutSchema,
    pay_amount: amountSchema,
    pay_currency: z.string(),
    actually_paid: amountSchema.nullable(),
    is_fixed_rate: z.boolean(),
    is_fee_paid_by_user: z.boolean(),
  }),
  blockchain: z.strictObject({
    pay_address: z.string(),
    pay_amount: amountSchema,
    pay_currency: z.string(),
    network: z.string(),
    extra_id: z.string().nullable(),
    smart_contract: z.string().nullable(),
    network_precision: z.number().int(),
  }),
  qr: z.strictObject({
    payload: z.string().meta({ examples: ['bitcoin:bc1qexampleaddress'] }),
    amount_payload: z.string(),
    payment_uri: z.string(),
    code_url: z.string().meta({ description: 'data:image/svg+xml URL of the QR of `payload`' }),
    amount_code_url: z.string(),
  }),
  merchant_reference: z.strictObject({ order_id: z.string(), order_description: z.string() }),
  integration_recommendations: z.array(z.string()),
});

export const paymentLinkSchema = z.strictObject({
  payment: z.strictObject({
    payment_id: paymentIdSchema,
    purchase_id: z.string(),
    invoice_id: z.string(),
    payment_status: paymentStatusSchema,
    type: z.literal('payment_link'),
    product: z.literal('hosted_checkout'),
    hosted_payment_url: z.string(),
    payer_name: z.string(),
    payer_email: z.string(),
    success_url: z.string(),
    cancel_url: z.string(),
  }),
  customer: customerSchema,
  pricing: z.strictObject({
    price_amount: amountSchema,
    price_currency: priceCurrencyOutSchema,
    pay_amount: amountSchema,
    pay_currency: z.string(),
    amount_received: amountSchema,
    is_fixed_rate: z.boolean(),
    is_fee_paid_by_user: z.boolean(),
  }),
  blockchain: z.strictObject({
    pay_address: z.string(),
    network: z.string(),
    smart_contract: z.string().nullable(),
    burning_percent: z.number().nullable(),
    network_precision: z.number().int(),
  }),
  timing: z.strictObject({
    created_at: timestampSchema,
    updated_at: timestampSchema,
    expiration_estimate_date: timestampSchema,
    valid_until: timestampSchema,
    time_limit: z.number().int(),
  }),
  additional_info: z.strictObject({
    order_id: z.string().nullable(),
    order_description: z.string().nullable(),
    payin_extra_id: z.string().nullable(),
    customer_name: z.string().nullable(),
    customer_email: z.string(),
    ipn_callback_url: z.string(),
    success_url: z.string(),
    cancel_url: z.string(),
    origin_ip: z.string(),
  }),
});

/** POST /payments/{payment_id}/ask-rest (merchant API and dashboard): until when the rest may be paid. */
export const askRestSchema = z.strictObject({
  deadline: z.iso
    .datetime({ offset: true, message: 'Must be an ISO 8601 date-time such as 2026-12-01T12:00:00Z' })
    .meta({
      description: `Until when the customer may pay the rest to the same address: after now and at most ${MAX_REST_DAYS} days ahead`,
      examples: ['2026-12-01T12:00:00Z'],
    }),
});
