import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { hostedPaymentUrl } from '../../../api-kit/payment-views.js';
import {
  currencyCodeSchema,
  emailSchema,
  orderDescriptionSchema,
  orderIdSchema,
  usdAmountSchema,
} from '../../../api-kit/schemas.js';
import { letCustomerChoose } from '../../../core/checkout/customer-choice.js';
import { invalid } from '../../../core/errors.js';
import { numberToDecimalText } from '../../../core/money/decimal.js';
import { createPayment } from '../../../core/payments/create-payment.js';
import type { Payment } from '../../../core/payments/payment.js';
import { qrSvgDataUrl } from '../../../core/qr/encode.js';
import { auditIn } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { paymentRowView } from '../../views.js';

/** The fields of POST /api/v1/payment-links a merchant fills in by hand (same rules, api-kit/schemas.ts). */
export const createPaymentLinkSchema = z.strictObject({
  amount: usdAmountSchema,
  currency: currencyCodeSchema.optional(),
  email: emailSchema,
  order_id: orderIdSchema.optional(),
  order_description: orderDescriptionSchema.optional(),
});

/**
 * POST /merchants/{id}/payment-links (owner): a payment link made in the dashboard, through the same core as
 * POST /api/v1/payment-links (createPayment), answered with its hosted URL and a QR code of it (core/qr). Without a
 * currency the link starts in the first asset the merchant can take, and its page offers the customer the picker.
 */
export function registerCreatePaymentLink(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/payment-links', async (c) => {
    const merchant = c.get('merchant');
    const { data } = await readJson(c, createPaymentLinkSchema, x.deps.limits.bodyBytes);
    const currency =
      data.currency ?? x.deps.catalog.list().find((a) => x.deps.chains.isEnabled(merchant.mode, a.network))?.code;
    if (currency === undefined) throw invalid('currency', 'No currency is enabled for this merchant');
    const payment = await createPayment(
      x.deps,
      merchant,
      {
        kind: 'link',
        priceAmount: numberToDecimalText(data.amount) ?? '0',
        currency,
        email: data.email,
        orderId: data.order_id,
        orderDescription: data.order_description,
        originIp: x.clientAddress(c),
      },
      // Money-moving: the link and its audit entry commit together (README, "Audit log"). Without an asset the
      // customer chooses one on the hosted page (core/checkout/customer-choice.ts).
      async (trx, p) => {
        if (data.currency === undefined) await letCustomerChoose(trx, p.id, p.created_at);
        await auditIn(x, c, trx, {
          action: 'payment.link',
          target: p.id,
          details: {
            price_amount: p.price_amount,
            pay_currency: data.currency === undefined ? 'customer picks' : p.pay_currency,
          },
        });
      },
    );
    return ok(c, createdLinkView(x, payment), 'Payment link created', 201);
  });
}

function createdLinkView(x: DashCtx, payment: Payment) {
  const url = hostedPaymentUrl(payment, x.deps.settings.publicUrl, x.deps.settings.pageSecret);
  return { payment: paymentRowView(payment), hosted_payment_url: url, qr_code_url: qrSvgDataUrl(url) };
}
export type CreatedLink = ReturnType<typeof createdLinkView>;
