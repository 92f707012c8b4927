import { z } from 'zod';

/**
 * Field rules both APIs share, so a drop-in payment is any other payment. Bounds the spec leaves open ("not
 * shown") are decided here and documented in README.
 */

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

/** A USD price as a JSON number; its range and cents are checked exactly by core/pricing `priceCents`. */
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

export const customerNameSchema = z.string().max(200);
export const orderIdSchema = z.string().max(200);
export const orderDescriptionSchema = z.string().max(2000);

/** Display currencies: prices are in USD (spec 4.9 "USD in usage"); anything else is refused, not converted. */
export const displayCurrencySchema = z
  .string({ error: 'Must be a string' })
  .regex(/^usd$/i, 'Only USD is supported as the display currency')
  .transform((v) => v.toUpperCase());
