import type { Context } from 'hono';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { requestHeader } from '../../api-kit/node-request.js';
import { invalid } from '../../core/errors.js';
import { fromUnits, numberToDecimalText, usdToCents } from '../../core/money/decimal.js';
import { createPayment, MAX_PRICE_USD, payableAsset } from '../../core/payments/create-payment.js';
import type { DropinEnv } from '../context.js';
import { currencyCodeSchema, displayCurrencySchema, emailSchema, usdAmountSchema } from '../schemas.js';
import { insertSession, setSessionPayment } from '../sessions.js';
import { checkoutPaymentView, checkoutView } from '../views.js';
import { sessionPickerCurrencies } from './currencies.js';

export const createSessionSchema = z.strictObject({
  amount: usdAmountSchema,
  currency: displayCurrencySchema.default('USD'),
  crypto_currency: currencyCodeSchema.optional(),
  customer: z.strictObject({ email: emailSchema, name: z.string().max(200).optional() }),
  reference: z.string().max(200).optional(),
});
export type CreateSessionBody = z.infer<typeof createSessionSchema>;

/**
 * POST /sessions (dk_ key): the checkout is created server-side from the merchant's options. With
 * `crypto_currency` the payment is created in the same call (one round trip to the QR); without it the answer
 * carries the picker's currencies instead. The token in the answer is the only way to read the session afterwards.
 */
export function createSessionHandler(deps: ApiDeps, clientAddress: (c: Context) => string) {
  return async (c: Context<DropinEnv>) => {
    const merchant = c.get('merchant');
    const { data } = await readJson(c, createSessionSchema, deps.limits.bodyBytes);
    const cents = usdToCents(numberToDecimalText(data.amount) ?? '');
    if (cents === null || cents <= 0n) throw invalid('amount', 'Amount must be at least 0.01 USD');
    if (cents > MAX_PRICE_USD * 100n) throw invalid('amount', `Amount must not exceed ${MAX_PRICE_USD} USD`);
    const price = fromUnits(cents, 2);
    const asset = data.crypto_currency === undefined ? null : payableAsset(deps, merchant.mode, data.crypto_currency);

    // The payment first: if it fails (below the minimum, ...) nothing at all is written.
    const payment = asset
      ? await createPayment(deps, merchant, {
          kind: 'direct',
          priceAmount: price,
          currency: asset.code,
          email: data.customer.email,
          name: data.customer.name,
          orderId: data.reference,
          originIp: clientAddress(c),
        })
      : null;
    const now = deps.clock.now();
    const { session, token } = await insertSession(deps.db, {
      merchantId: merchant.id,
      priceAmount: price,
      priceCurrency: data.currency,
      cryptoCurrency: asset?.code ?? null,
      email: data.customer.email,
      name: data.customer.name ?? null,
      reference: data.reference ?? null,
      origin: requestHeader(c, 'origin') ?? null,
      now,
    });
    if (payment && asset) {
      await setSessionPayment(deps.db, session.id, payment.id, asset.code, now);
      session.payment_id = payment.id;
    }
    const checkout = { kind: 'session' as const, token, merchant, session };
    return ok(
      c,
      {
        session_token: token,
        session: checkoutView(checkout),
        // One or the other, never a null beside it: the answer counts against the popup's 15 KB to the QR.
        ...(payment
          ? { payment: await checkoutPaymentView(deps, payment) }
          : { currencies: await sessionPickerCurrencies(deps, merchant.mode, price) }),
      },
      'Checkout session created',
      201,
    );
  };
}
