import { z } from 'zod';

/** Field bounds the spec leaves open ("not shown"), decided here and documented in README. */
export const httpsUrlSchema = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'Must be an absolute https:// URL');

export const usdAmountSchema = z
  .number({ error: 'Must be a number (USD amount)' })
  .finite()
  .positive('Must be greater than 0');

export const currencyCodeSchema = z
  .string({ error: 'Must be a string (asset ticker)' })
  .trim()
  .min(1, 'Required')
  .max(20)
  .regex(/^[A-Za-z0-9]+$/, 'Must be an asset ticker such as btc or USDTERC20');

export const emailSchema = z.email({ error: 'Must be a valid e-mail address' }).max(254);

/** The body fields shared by POST /payments and POST /payment-links (spec 4.6, 4.7). */
export const checkoutFields = {
  amount: usdAmountSchema,
  currency: currencyCodeSchema,
  email: emailSchema,
  name: z.string().max(200).optional(),
  is_fixed_rate: z.boolean().optional(),
  is_fee_paid_by_user: z.boolean().optional(),
  order_id: z.string().max(200).optional(),
  order_description: z.string().max(2000).optional(),
  success_url: httpsUrlSchema.optional(),
  cancel_url: httpsUrlSchema.optional(),
};
