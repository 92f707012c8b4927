import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { validBody } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { requestHeader } from '../../api-kit/node-request.js';
import {
  currencyCodeSchema,
  customerNameSchema,
  emailSchema,
  orderIdSchema,
  priceCurrencySchema,
  usdAmountSchema,
} from '../../api-kit/schemas.js';
import { openSession } from '../../core/checkout/sessions.js';
import { numberToDecimalText } from '../../core/money/decimal.js';
import { merchantCurrency, payableAsset } from '../../core/payments/create-payment.js';
import { priceMinor, priceText } from '../../core/pricing/amounts.js';
import type { DropinEnv } from '../context.js';
import { checkoutPaymentView, checkoutView } from '../views.js';
import { sessionPickerCurrencies } from './currencies.js';

export const createSessionSchema = z.strictObject({
  amount: usdAmountSchema,
  /** The price's currency (API §4.9 display currency). @default the merchant's default currency, USD unless set */
  currency: priceCurrencySchema.optional(),
  crypto_currency: currencyCodeSchema.optional(),
  customer: z.strictObject({ email: emailSchema, name: customerNameSchema.optional() }),
  reference: orderIdSchema.optional(),
});
export type CreateSessionBody = z.infer<typeof createSessionSchema>;

/**
 * POST /sessions (dk_ key, in the body: context.ts requireSessionKey): the checkout is created server-side from the merchant's options. With
 * `crypto_currency` the payment is created in the same call and transaction (one round trip to the QR); without it
 * the answer carries the picker's currencies instead. The token in the answer is the only way to read the session.
 */
export function registerCreateSession(app: Hono<DropinEnv>, deps: ApiDeps, clientAddress: (c: Context) => string) {
  app.post('/sessions', async (c) => {
    const merchant = c.get('merchant');
    // requireSessionKey has read the body (its key among it).
    const data = validBody(createSessionSchema, c.get('body'));
    const currency = data.currency ?? merchantCurrency(merchant);
    const price = priceText(priceMinor(numberToDecimalText(data.amount) ?? '', currency), currency);
    const asset = data.crypto_currency === undefined ? null : payableAsset(deps, merchant.mode, data.crypto_currency);
    const { session, token, payment } = await openSession(deps, merchant, {
      priceAmount: price,
      priceCurrency: currency,
      email: data.customer.email,
      name: data.customer.name ?? null,
      reference: data.reference ?? null,
      origin: requestHeader(c, 'origin') ?? null,
      payment: asset && { kind: 'direct', currency: asset.code, originIp: clientAddress(c) },
    });
    return ok(
      c,
      {
        session_token: token,
        session: checkoutView({ kind: 'session', token, merchant, session }),
        // One or the other, never a null beside it.
        ...(payment
          ? { payment: await checkoutPaymentView(deps, payment) }
          : { currencies: await sessionPickerCurrencies(deps, merchant.mode, { amount: price, currency }) }),
      },
      'Checkout session created',
      201,
    );
  });
}
