import { z } from 'zod';

/** Field bounds of the drop-in routes; they match the merchant API's so a drop-in payment is any other payment. */
export const currencyCodeSchema = z
  .string({ error: 'Must be a string (asset ticker)' })
  .trim()
  .min(1, 'Required')
  .max(20)
  .regex(/^[A-Za-z0-9]+$/, 'Must be an asset ticker such as btc or USDTERC20');

export const usdAmountSchema = z
  .number({ error: 'Must be a number (USD amount)' })
  .finite()
  .positive('Must be greater than 0');

export const emailSchema = z.email({ error: 'Must be a valid e-mail address' }).max(254);

/** Display currencies: prices are in USD (spec 4.9 "USD in usage"); anything else is refused, not converted. */
export const displayCurrencySchema = z
  .string({ error: 'Must be a string' })
  .regex(/^usd$/i, 'Only USD is supported as the display currency')
  .transform((v) => v.toUpperCase());
