import { z } from 'zod';
import { type FiatCode, fiatCodes } from '../core/money/fiat.js';
import { MAX_PRICE_USD } from '../core/pricing/amounts.js';

/**
 * Field rules both APIs share, so a drop-in payment is any other payment. Bounds the API contract leaves open ("not
 * shown") are decided here and documented in README.
 */

/**
 * An absolute https URL. The pattern is the part a JSON Schema can say (the OpenAPI document carries it, so generated
 * clients and validating proxies refuse `http://` before sending); the refinement adds that it must parse as a URL.
 */
export const httpsUrlSchema = z
  .string({ error: 'Must be an absolute https:// URL' })
  .max(2048)
  .regex(/^https:\/\/[^\s/?#]+/, 'Must be an absolute https:// URL')
  .refine((v) => {
    try {
      return new URL(v).hostname.length > 0;
    } catch {
      return false;
    }
  }, 'Must be an absolute https:// URL');

/**
 * A USD price as a JSON number: greater than 0 and at most MAX_PRICE_USD, bounds the OpenAPI document carries
 * (`exclusiveMinimum`, `maximum`). Cents are checked exactly by core/pricing `priceCents` (0.001 rounds to nothing).
 */
export const usdAmountSchema = z
  .number({ error: 'Must be a number (USD amount)' })
  .finite()
  .positive('Must be greater than 0')
  .max(Number(MAX_PRICE_USD), `Amount must not exceed ${MAX_PRICE_USD} USD`);

/**
 * A USD amount as query text, kept exact (it never passes through a float): digits with an optional fraction,
 * greater than 0 and at most MAX_PRICE_USD, all said by the pattern so the OpenAPI document carries the range.
 */
export const usdAmountTextSchema = z
  .string({ error: 'Required: the USD amount to convert' })
  .regex(
    /^(?:[1-9][0-9]{0,6}(?:\.[0-9]+)?|0\.[0-9]*[1-9][0-9]*|10000000(?:\.0+)?)$/,
    `Must be a USD amount greater than 0 and at most ${MAX_PRICE_USD}, such as 19.99`,
  );

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

/**
 * A price currency (core/money/fiat.ts): an ISO 4217 code in upper or lower case ("EUR", "eur"), given as the
 * enum of both spellings so the OpenAPI document lists exactly what the service takes. Output: upper case.
 */
export const priceCurrencySchema = z
  .enum([...fiatCodes, ...fiatCodes.map((c) => c.toLowerCase())], {
    error: `Must be a supported currency code (ISO 4217) such as USD, EUR or JPY: ${fiatCodes.join(', ')}`,
  })
  .transform((v) => v.toUpperCase() as FiatCode);
