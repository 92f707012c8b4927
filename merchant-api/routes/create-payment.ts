import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { requestHeader } from '../../api-kit/node-request.js';
import { directPaymentSchema, paymentLinkSchema } from '../../api-kit/payment-schemas.js';
import { directPaymentView, paymentLinkView } from '../../api-kit/payment-views.js';
import {
  currencyCodeSchema,
  customerNameSchema,
  emailSchema,
  httpsUrlSchema,
  orderDescriptionSchema,
  orderIdSchema,
  priceCurrencySchema,
  usdAmountSchema,
} from '../../api-kit/schemas.js';
import { numberToDecimalText, stringifyJson } from '../../core/money/decimal.js';
import { createPayment, type NewPayment } from '../../core/payments/create-payment.js';
import { withIdempotency } from '../../core/payments/idempotency.js';
import type { Payment } from '../../core/payments/payment.js';
import { findMerchantPayment } from '../../core/payments/store.js';
import type { MerchantEnv } from '../auth.js';
import { bodyErrors, pricingErrors } from '../openapi/operation.js';
import type { ClientAddress, MerchantRoute } from '../route.js';

/** The body of POST /payments and POST /payment-links (API §4.6, 4.7). */
export const createPaymentSchema = z.strictObject({
  amount: usdAmountSchema,
  /** ISO 4217 code of `amount`. @default the merchant's default currency, USD unless set */
  price_currency: priceCurrencySchema.optional(),
  currency: currencyCodeSchema,
  email: emailSchema,
  name: customerNameSchema.optional(),
  is_fixed_rate: z.boolean().optional(),
  is_fee_paid_by_user: z.boolean().optional(),
  order_id: orderIdSchema.optional(),
  order_description: orderDescriptionSchema.optional(),
  success_url: httpsUrlSchema.optional(),
  cancel_url: httpsUrlSchema.optional(),
});
export type CreatePaymentBody = z.infer<typeof createPaymentSchema>;

export function toNewPayment(kind: NewPayment['kind'], b: CreatePaymentBody, originIp: string): NewPayment {
  return {
    kind,
    priceAmount: numberToDecimalText(b.amount) ?? '0',
    priceCurrency: b.price_currency,
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

/** POST /payments and POST /payment-links share everything but the representation: one file serves both. */
function creationHandler(deps: ApiDeps, kind: NewPayment['kind'], clientAddress: ClientAddress) {
  const routeName = kind === 'direct' ? 'POST /payments' : 'POST /payment-links';
  return async (c: Context<MerchantEnv>) => {
    const merchant = c.get('merchant');
    const { data, raw } = await readJson(c, createPaymentSchema, deps.limits.bodyBytes);
    const respond = (payment: Payment) => {
      const view =
        kind === 'direct'
          ? directPaymentView(payment, deps.catalog, deps.settings.publicUrl, deps.settings.pageSecret)
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
          const p = await findMerchantPayment(deps.db, merchant.id, id);
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

const createPaymentExample = {
  amount: 100,
  currency: 'btc',
  email: 'ann@example.com',
  name: 'Ann',
  order_id: '1001',
  order_description: 'Two mugs',
  success_url: 'https://shop.example.com/ok',
  cancel_url: 'https://shop.example.com/cart',
};

const creationDescription =
  "`amount` is in `price_currency` (default: the merchant's default currency, USD unless set in the dashboard), rounded half-up to the currency's minor units (cents; JPY, KRW, CLP and VND none; BHD and KWD three), at most 10,000,000 of it and, in another currency than USD, worth at most 10,000,000 USD. Below the asset's minimum is 422 on `amount`; an unlisted `price_currency` is 422 on `price_currency`. " +
  'With `Idempotency-Key` the first response is replayed for 24 h (header `Idempotent-Replayed: true`); another body with the same key is 422, a request while the first runs is 409.';

export const createPaymentRoute: MerchantRoute = {
  method: 'post',
  path: '/payments',
  operationId: 'createPayment',
  summary: 'Create a direct payment',
  description: creationDescription,
  tag: 'Payments',
  body: { schema: createPaymentSchema, required: true, example: createPaymentExample },
  idempotent: true,
  success: { status: 201, description: 'Payment created', data: directPaymentSchema },
  errors: [...bodyErrors, ...pricingErrors, 409],
  handler: (deps, clientAddress) => creationHandler(deps, 'direct', clientAddress),
};

export const createPaymentLinkRoute: MerchantRoute = {
  ...createPaymentRoute,
  path: '/payment-links',
  operationId: 'createPaymentLink',
  summary: 'Create a payment link (hosted checkout)',
  success: { status: 201, description: 'Payment link created', data: paymentLinkSchema },
  handler: (deps, clientAddress) => creationHandler(deps, 'link', clientAddress),
};
