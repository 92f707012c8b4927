import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { currencyCodeSchema, usdAmountSchema } from '../../../api-kit/schemas.js';
import { openSession } from '../../../core/checkout/sessions.js';
import { AppError } from '../../../core/errors.js';
import { fromUnits, numberToDecimalText } from '../../../core/money/decimal.js';
import { payableAsset } from '../../../core/payments/create-payment.js';
import { priceCents } from '../../../core/pricing/amounts.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const tryCheckoutSchema = z.strictObject({
  amount: usdAmountSchema,
  crypto_currency: currencyCodeSchema.optional(),
});

/**
 * POST /merchants/{id}/checkout-sessions (owner, test merchants): a drop-in session created server-side for the
 * signed-in merchant, so the dashboard can open the merchant's own checkout without a public key (keys are stored
 * hashed; the dashboard cannot show one). Live merchants are refused: a try would ask for real funds.
 */
export function registerTryCheckout(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/checkout-sessions', async (c) => {
    const merchant = c.get('merchant');
    if (merchant.mode !== 'test')
      throw new AppError(
        'BAD_REQUEST',
        'Only a test merchant can be tried from the dashboard: a live checkout asks for real funds. Switch to your test merchant.',
      );
    const { data } = await readJson(c, tryCheckoutSchema, x.deps.limits.bodyBytes);
    const price = fromUnits(priceCents(numberToDecimalText(data.amount) ?? ''), 2);
    const asset = data.crypto_currency === undefined ? null : payableAsset(x.deps, merchant.mode, data.crypto_currency);
    const { token } = await audited(
      x,
      c,
      (trx) =>
        openSession({ ...x.deps, db: trx }, merchant, {
          priceAmount: price,
          priceCurrency: 'USD',
          email: c.get('signedIn').email,
          name: null,
          reference: 'dashboard-try',
          origin: new URL(x.deps.settings.publicUrl).origin,
          payment: asset && { kind: 'direct', currency: asset.code, originIp: x.clientAddress(c) },
        }),
      (opened) => ({
        action: 'checkout.try',
        target: opened.payment?.id ?? null,
        details: { price_amount: price, pay_currency: asset?.code ?? 'customer picks' },
      }),
    );
    return ok(c, { session_token: token }, 'Checkout session created', 201);
  });
}
