import { z } from 'zod';
import { amountSchema, timestampSchema } from './payment-schemas.js';

/** What the reusable-link routes answer (api-kit/link-views.ts), checked against every answer the suites receive. */

export const reusableLinkSchema = z.strictObject({
  id: z.string().meta({ examples: ['plk_4v9k2m8q1x7c3b5n0z6w'] }),
  name: z.string(),
  url: z.string().meta({ description: 'The public page customers open; each visit makes a new payment' }),
  status: z.enum(['active', 'inactive', 'ended', 'limit_reached']).meta({
    description: 'Whether a visit makes a payment now: `active`, or why not',
  }),
  active: z.boolean(),
  amount_type: z.enum(['fixed', 'customer']),
  amount: amountSchema.nullable().meta({ description: 'The fixed price; null when the customer enters the amount' }),
  min_amount: amountSchema.nullable(),
  max_amount: amountSchema.nullable(),
  price_currency: z.string(),
  currencies: z.array(z.string()).nullable().meta({ description: 'Assets offered; null offers every enabled asset' }),
  max_payments: z.number().int().nullable(),
  ends_at: timestampSchema.nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});

export const reusableLinkDetailSchema = reusableLinkSchema.extend({
  qr_code_url: z.string().meta({ description: "An SVG data URL of a QR code of the link's URL, for print" }),
  totals: z.array(
    z.strictObject({
      price_currency: z.string(),
      payments: z.number().int().meta({ description: 'Payments the link made' }),
      paid_payments: z.number().int().meta({ description: 'Of them, paid in full (finished)' }),
      paid_amount: amountSchema.meta({ description: 'The sum of their prices' }),
    }),
  ),
});

export const reusableLinkListSchema = z.strictObject({
  links: z.array(reusableLinkSchema),
  next_cursor: z.string().nullable(),
});
