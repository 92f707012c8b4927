import { z } from 'zod';
import type { LinkTerms } from '../core/links/links.js';
import { numberToDecimalText } from '../core/money/decimal.js';
import type { FiatCode } from '../core/money/fiat.js';
import { currencyCodeSchema, emailSchema, priceCurrencySchema, usdAmountSchema } from './schemas.js';

/**
 * Bodies of the reusable-link routes, one set for the merchant API (/api/v1/links) and the dashboard, and of a
 * customer's visit (the link's page and its JSON twin): the same field rules as POST /payments (api-kit/schemas.ts).
 */

const linkNameSchema = z.string({ error: 'Required: a name customers see' }).trim().min(1, 'Required').max(200);
const endsAtSchema = z.iso
  .datetime({ offset: true, error: 'Must be an ISO 8601 timestamp with a UTC offset' })
  .transform((v) => Date.parse(v));
const maxPaymentsSchema = z
  .number({ error: 'Must be a whole number' })
  .int('Must be a whole number')
  .min(1, 'Must be at least 1')
  .max(1_000_000);
const currenciesSchema = z.array(currencyCodeSchema).min(1, 'List at least one asset, or leave it out').max(100);

const linkShape = {
  name: linkNameSchema,
  /** The fixed price; without it the customer enters the amount (between min_amount and max_amount). */
  amount: usdAmountSchema.optional(),
  min_amount: usdAmountSchema.optional(),
  max_amount: usdAmountSchema.optional(),
  price_currency: priceCurrencySchema.optional(),
  currencies: currenciesSchema.optional(),
  max_payments: maxPaymentsSchema.optional(),
  ends_at: endsAtSchema.optional(),
  active: z.boolean().optional(),
};

export const createLinkSchema = z.strictObject(linkShape);
export type CreateLinkBody = z.infer<typeof createLinkSchema>;

/** A change: any of the fields; `null` clears an optional one (a limit, the asset list, a bound, the fixed price). */
export const updateLinkSchema = z
  .strictObject({
    name: linkNameSchema.optional(),
    amount: usdAmountSchema.nullable().optional(),
    min_amount: usdAmountSchema.nullable().optional(),
    max_amount: usdAmountSchema.nullable().optional(),
    price_currency: priceCurrencySchema.optional(),
    currencies: currenciesSchema.nullable().optional(),
    max_payments: maxPaymentsSchema.nullable().optional(),
    ends_at: endsAtSchema.nullable().optional(),
    active: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Send at least one field to change');
export type UpdateLinkBody = z.infer<typeof updateLinkSchema>;

const text = (n: number | null | undefined) => (n === null || n === undefined ? null : numberToDecimalText(n));

/** A new link's terms from a create body (defaults: the merchant's default currency, active, no limits, every asset). */
export function termsFromCreate(b: CreateLinkBody, defaultCurrency: FiatCode): LinkTerms {
  return {
    name: b.name,
    priceAmount: text(b.amount),
    minAmount: text(b.min_amount),
    maxAmount: text(b.max_amount),
    priceCurrency: b.price_currency ?? defaultCurrency,
    currencies: b.currencies ?? null,
    maxPayments: b.max_payments ?? null,
    endsAt: b.ends_at ?? null,
    active: b.active ?? true,
  };
}

/** A link's terms with a change applied: fields left out keep their value, `null` clears. */
export function termsWithUpdate(t: LinkTerms, b: UpdateLinkBody): LinkTerms {
  const pick = <T>(v: T | undefined, old: T) => (v === undefined ? old : v);
  return {
    name: b.name ?? t.name,
    priceAmount: b.amount === undefined ? t.priceAmount : text(b.amount),
    minAmount: b.min_amount === undefined ? t.minAmount : text(b.min_amount),
    maxAmount: b.max_amount === undefined ? t.maxAmount : text(b.max_amount),
    priceCurrency: b.price_currency ?? t.priceCurrency,
    currencies: pick(b.currencies, t.currencies),
    maxPayments: pick(b.max_payments, t.maxPayments),
    endsAt: pick(b.ends_at, t.endsAt),
    active: b.active ?? t.active,
  };
}

/**
 * A customer's visit of a link: their e-mail (required, as POST /payments requires it), the amount when the link
 * lets them enter it (a decimal text from a form field, or a JSON number), and the asset they pay with.
 */
export const linkVisitSchema = z.strictObject({
  email: emailSchema,
  amount: z
    .union([
      usdAmountSchema,
      z
        .string()
        .trim()
        .regex(/^\d{1,8}(?:\.\d{1,2})?$/, 'Must be an amount such as 25 or 25.50'),
    ])
    .optional(),
  currency: currencyCodeSchema.optional(),
});
export type LinkVisitBody = z.infer<typeof linkVisitSchema>;

/** The amount of a visit as exact decimal text. */
export function visitAmountText(v: LinkVisitBody['amount']): string | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'number' ? (numberToDecimalText(v) ?? undefined) : v;
}

/** GET /links (merchant API and dashboard): a keyset page of the merchant's reusable links. */
export const listLinksQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});
