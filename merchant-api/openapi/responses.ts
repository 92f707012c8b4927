import { z } from 'zod';
import { amountSchema, customerSchema, paymentStateShape, timestampSchema } from '../../api-kit/payment-schemas.js';
import { fiatCodes } from '../../core/money/fiat.js';
import { deliveryStatuses } from '../../core/webhooks/deliveries.js';

/**
 * The shapes of what /api/v1 answers, as zod schemas. They are the response half of the OpenAPI document (the
 * request half is each route's own request schema), and the test harness checks every answer the merchant API
 * suites receive against that document, so a view that changes shape without its schema fails a test.
 */

/** The success envelope around `data` (docs/architecture.md, API contract). */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.strictObject({ success: z.literal(true), message: z.string(), data });
}

/** Every failure: the API's envelope (docs/architecture.md) plus `code` and `request_id`; `errors` per field on 422 only. */
export const errorEnvelopeSchema = z
  .strictObject({
    success: z.literal(false),
    message: z.string(),
    code: z.string().meta({ examples: ['VALIDATION_FAILED'] }),
    request_id: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({
    examples: [
      {
        success: false,
        message: 'Validation failed',
        code: 'VALIDATION_FAILED',
        request_id: 'req_4f9a1c',
        errors: { currency: ['Unknown currency "abc"'] },
      },
    ],
  });

export const currencySchema = z.strictObject({
  code_id: z.number().int(),
  code: z.string().meta({ examples: ['BTC'] }),
  name: z.string(),
  network: z.string(),
  icon_url: z.string(),
  logo_file: z.string(),
  wallet_regex: z.string(),
  priority: z.number().int(),
  extra_id_exists: z.boolean(),
  extra_id_regex: z.string().nullable(),
  track: z.number().int(),
  cg_id: z.string(),
  is_maxlimit: z.boolean(),
  smart_contract: z.string().nullable(),
  network_precision: z.number().int(),
  usd_rate: amountSchema,
  enabled: z.boolean(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});

export const balanceSchema = z.strictObject({
  currency: z.string(),
  amount: amountSchema,
  pending_amount: amountSchema,
  usd_amount: amountSchema,
  pending_usd_amount: amountSchema,
  updated_at: timestampSchema,
});

export const balancesSchema = z.strictObject({ sub_partner_id: z.string(), balances: z.array(balanceSchema) });

/** The same, lower case, where the API contract writes currencies so (`currency_from: "usd"`). */
const fiatLowerSchema = z.enum(fiatCodes.map((c) => c.toLowerCase()) as [string, ...string[]]);

export const minimumAmountSchema = z.strictObject({
  currency_from: z.string(),
  currency_to: z.string(),
  fiat_equivalent: fiatLowerSchema,
  is_fixed_rate: z.boolean(),
  is_fee_paid_by_user: z.boolean(),
  min_amount: amountSchema,
  fiat_equivalent_amount: amountSchema,
  raw: z.strictObject({ min_amount: amountSchema, fiat_equivalent: amountSchema }),
});

export const estimateSchema = z.strictObject({
  amount: amountSchema,
  currency_from: fiatLowerSchema,
  currency_to: z.string(),
  estimated_amount: amountSchema,
  rate: amountSchema,
  fee: amountSchema,
  raw: z.strictObject({
    currency_from: fiatLowerSchema,
    amount_from: amountSchema,
    currency_to: z.string(),
    estimated_amount: amountSchema,
  }),
});

const attemptSchema = z.strictObject({
  attempt: z.number().int(),
  url: z.string(),
  started_at: timestampSchema,
  duration_ms: z.number().int().nullable(),
  response_code: z.number().int().nullable(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable(),
  next_attempt_at: timestampSchema.nullable(),
});

export const deliverySchema = z.strictObject({
  delivery_id: z.string().meta({ examples: ['dlv_3kD9sQ1w'] }),
  event_id: z.string(),
  event: z.enum(['payment.updated', 'refund.updated']),
  test: z.boolean(),
  payment_id: z.string().nullable(),
  sequence: z.number().int().nullable(),
  status: z.enum(deliveryStatuses),
  attempt_count: z.number().int(),
  next_attempt_at: timestampSchema.nullable(),
  last_response_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  delivered_at: timestampSchema.nullable(),
  attempts: z.array(attemptSchema),
});

export const deliveryListSchema = z.strictObject({
  deliveries: z.array(deliverySchema),
  next_cursor: z.string().nullable(),
});

export const webhookEndpointSchema = z.strictObject({
  url: z.string().nullable(),
  enabled: z.boolean(),
  mode: z.enum(['test', 'live']),
});

export const sandboxTransferResultSchema = z.strictObject({
  txid: z.string(),
  network: z.string(),
  currency: z.string(),
  address: z.string(),
  extra_id: z.string().nullable(),
  amount: z.string().meta({ description: 'The amount sent, as exact decimal text' }),
  confirmations: z.literal(0),
});

export const sandboxBlocksResultSchema = z.strictObject({
  height: z.number().int(),
  heights: z.record(z.string(), z.number().int()),
});

/** The `payment.updated` payload (API §6, core/payments/events.ts), sent byte for byte on every attempt. */
export const paymentUpdatedSchema = z.strictObject({
  id: z.string().meta({ description: 'Event id (UUID)' }),
  event: z.literal('payment.updated'),
  created_at: timestampSchema,
  source: z.string(),
  test: z.literal(true).optional().meta({ description: 'Present on test events only' }),
  merchant: z.strictObject({ user_id: z.string().nullable() }),
  payment: z.strictObject({
    ...paymentStateShape,
    purchase_id: z.string(),
    customer: customerSchema,
  }),
});

/**
 * GET /openapi.json: this document, typed by the members a reader looks for (OpenAPI 3.1 "OpenAPI Object") and open to
 * the rest, so a generated client reads it without a cast.
 */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.string().meta({ examples: ['3.1.0'] }),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  servers: z.array(z.looseObject({ url: z.string() })),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  webhooks: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.record(z.string(), z.unknown())),
});
