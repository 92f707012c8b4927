import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { paymentQr } from '../../../api-kit/payment-views.js';
import { currencyCodeSchema, emailSchema, usdAmountSchema } from '../../../api-kit/schemas.js';
import { numberToDecimalText } from '../../../core/money/decimal.js';
import type { Payment } from '../../../core/payments/payment.js';
import { sellAtCounter } from '../../../core/pos/sell.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { paymentRowView } from '../../views.js';

export const posPaymentSchema = z.strictObject({
  amount: usdAmountSchema,
  tip: z.number({ error: 'Must be a number' }).finite().min(0, 'A tip is zero or more').max(1_000_000).optional(),
  currency: currencyCodeSchema,
  /** For the customer's receipt; without it no customer mail is sent (never to the cashier). */
  customer_email: emailSchema.optional(),
});

/**
 * POST /merchants/{id}/pos/payments (owner or cashier): a payment at the counter, the keypad's amount plus the tip,
 * answered with the QR code of its payment URI with the exact amount (the same digits as `pay_amount`).
 */
export function registerPosCreatePayment(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/pos/payments', async (c) => {
    const { data } = await readJson(c, posPaymentSchema, x.deps.limits.bodyBytes);
    const signedIn = c.get('signedIn');
    const payment = await sellAtCounter(x.deps, c.get('merchant'), {
      amount: numberToDecimalText(data.amount) ?? '0',
      tip: numberToDecimalText(data.tip ?? 0) ?? '0',
      currency: data.currency,
      customerEmail: data.customer_email,
      userId: signedIn.userId,
      userEmail: signedIn.email,
      originIp: x.clientAddress(c),
    });
    return ok(c, saleView(x, payment), 'Payment created', 201);
  });
}

function saleView(x: DashCtx, payment: Payment) {
  const qr = paymentQr(x.deps.catalog, payment);
  return { payment: paymentRowView(payment), payment_uri: qr.payment_uri, qr_code_url: qr.amount_code_url };
}
export type Sale = ReturnType<typeof saleView>;
