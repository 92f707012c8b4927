import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { requestHeader } from '../../api-kit/node-request.js';
import { directPaymentView, paymentLinkView } from '../../api-kit/payment-views.js';
import { numberToDecimalText, stringifyJson } from '../../core/money/decimal.js';
import { createPayment, findPayment, type NewPayment } from '../../core/payments/create-payment.js';
import type { Payment } from '../../core/payments/payment.js';
import type { MerchantEnv } from '../auth.js';
import { withIdempotency } from '../idempotency.js';
import { checkoutFields } from '../schemas.js';

export const createPaymentSchema = z.strictObject(checkoutFields);
export type CreatePaymentBody = z.infer<typeof createPaymentSchema>;

function assetOf(deps: ApiDeps, p: Payment) {
  const asset = deps.catalog.get(p.pay_currency);
  if (!asset) throw new Error(`asset ${p.pay_currency} left the catalog`);
  return asset;
}

export function toNewPayment(kind: NewPayment['kind'], b: CreatePaymentBody, originIp: string): NewPayment {
  return {
    kind,
    priceAmount: numberToDecimalText(b.amount) ?? '0',
    currency: b.currency,
    email: b.email,
    name: b.name,
    orderId: b.order_id,
    orderDescription: b.order_description,
    successUrl: b.success_url,
    cancelUrl: b.cancel_url,
    isFixedRate: b.is_fixed_rate,
    isFeePaidByUser: b.is_fee_paid_by_user,
    originIp,
  };
}

/**
 * POST /payments and POST /payment-links share everything but the representation, so one handler serves both.
 */
export function creationHandler(deps: ApiDeps, kind: NewPayment['kind'], clientAddress: (c: Context) => string) {
  const routeName = kind === 'direct' ? 'POST /payments' : 'POST /payment-links';
  return async (c: Context<MerchantEnv>) => {
    const merchant = c.get('merchant');
    const { data, raw } = await readJson(c, createPaymentSchema, deps.limits.bodyBytes);
    const respond = (payment: Payment) => {
      const view =
        kind === 'direct'
          ? directPaymentView(payment, assetOf(deps, payment), deps.settings.publicUrl, deps.settings.pageSecret)
          : paymentLinkView(payment, deps.settings.publicUrl, deps.settings.pageSecret);
      const message = kind === 'direct' ? 'Payment created' : 'Payment link created';
      return { status: 201, body: stringifyJson({ success: true, message, data: view }) };
    };
    const res = await withIdempotency(
      deps.db,
      deps.clock.now(),
      { merchantId: merchant.id, key: requestHeader(c, 'idempotency-key'), route: routeName, rawBody: raw },
      {
        create: async (id) =>
          respond(await createPayment(deps, merchant, { ...toNewPayment(kind, data, clientAddress(c)), id })),
        recover: async (id) => {
          const p = await findPayment(deps, merchant.id, id);
          return p ? respond(p) : null;
        },
      },
    );
    return c.body(res.body, res.status as ContentfulStatusCode, {
      'content-type': 'application/json; charset=utf-8',
      ...(res.replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
  };
}
