import type { Context } from 'hono';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { AppError } from '../../core/errors.js';
import { createPayment, payableAsset } from '../../core/payments/create-payment.js';
import type { Payment } from '../../core/payments/payment.js';
import type { DropinEnv } from '../context.js';
import { currencyCodeSchema } from '../schemas.js';
import { setSessionPayment } from '../sessions.js';
import { checkoutPaymentView, currentPayment, hostedToken } from '../views.js';

export const chooseCurrencySchema = z.strictObject({ currency: currencyCodeSchema });

/** A payment that can still be paid as quoted: nothing received yet and its quote not past `expires_at`. */
function untouched(p: Payment): boolean {
  return p.status === 'waiting' && p.actually_paid_units === '0';
}

/**
 * POST /sessions/{token}/payment: the customer's asset choice creates the payment through the same core as
 * POST /payments. Choosing again while the quote holds returns the same payment (a double click creates
 * nothing); another asset before paying replaces it; after expiry it is the retry of spec 4.7, a new payment.
 * Once money arrived the choice is final (409), so a payment in flight is never orphaned.
 */
export function chooseCurrencyHandler(deps: ApiDeps, clientAddress: (c: Context) => string) {
  return async (c: Context<DropinEnv>) => {
    const x = c.get('checkout');
    const { data } = await readJson(c, chooseCurrencySchema, deps.limits.bodyBytes);
    const asset = payableAsset(deps, x.merchant.mode, data.currency);
    const now = deps.clock.now();
    const current = await currentPayment(deps, x);
    if (current && !untouched(current) && current.status !== 'expired' && current.status !== 'failed') {
      throw new AppError(
        'CONFLICT',
        `This checkout already received a payment (status ${current.status}); it cannot start another one`,
      );
    }
    if (current && untouched(current) && current.pay_currency === asset.code && current.expires_at > now) {
      return ok(c, { payment: await checkoutPaymentView(deps, current) }, 'Payment unchanged');
    }
    const source = x.kind === 'hosted' ? x.payment : null;
    const payment = await createPayment(deps, x.merchant, {
      kind: source?.kind ?? 'direct',
      priceAmount: source?.price_amount ?? (x.kind === 'session' ? x.session.price_amount : '0'),
      currency: asset.code,
      email: source?.customer_email ?? (x.kind === 'session' ? x.session.customer_email : ''),
      name: source
        ? (source.customer_name ?? undefined)
        : x.kind === 'session'
          ? (x.session.customer_name ?? undefined)
          : undefined,
      orderId: source
        ? (source.order_id ?? undefined)
        : x.kind === 'session'
          ? (x.session.reference ?? undefined)
          : undefined,
      orderDescription: source?.order_description ?? undefined,
      successUrl: source?.success_url ?? undefined,
      cancelUrl: source?.cancel_url ?? undefined,
      isFixedRate: source ? source.is_fixed_rate === 1 : undefined,
      isFeePaidByUser: source ? source.is_fee_paid_by_user === 1 : undefined,
      timeLimitSeconds: source?.kind === 'link' ? source.time_limit : undefined,
      originIp: clientAddress(c),
    });
    if (x.kind === 'session') await setSessionPayment(deps.db, x.session.id, payment.id, asset.code, now);
    // A hosted page moves to the new payment's own page token (in the answer); a drop-in session keeps its token,
    // which the popup already has: not sent again, as the answer counts against the popup's 15 KB to the QR.
    const view = await checkoutPaymentView(deps, payment);
    const answer =
      x.kind === 'hosted' ? { session_token: hostedToken(deps, payment.id), payment: view } : { payment: view };
    return ok(c, answer, 'Payment created', 201);
  };
}
