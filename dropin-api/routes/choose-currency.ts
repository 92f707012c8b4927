import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { currencyCodeSchema } from '../../api-kit/schemas.js';
import { choosePayment } from '../../core/checkout/checkout.js';
import { rememberMailLocale } from '../../core/mail/customer-mails.js';
import type { DropinEnv } from '../context.js';
import { checkoutPaymentView, hostedToken } from '../views.js';

export const chooseCurrencySchema = z.strictObject({ currency: currencyCodeSchema });

/**
 * POST /sessions/{token}/payment: the customer's asset choice (core/checkout/checkout.ts `choosePayment`: the same
 * quote again while it holds, a new payment otherwise, 409 once money arrived).
 */
export function registerChooseCurrency(app: Hono<DropinEnv>, deps: ApiDeps, clientAddress: (c: Context) => string) {
  app.post('/sessions/:token/payment', async (c) => {
    const x = c.get('checkout');
    const { data } = await readJson(c, chooseCurrencySchema, deps.limits.bodyBytes, { plainText: true });
    const { payment, created } = await choosePayment(deps, x, data.currency, clientAddress(c));
    const view = await checkoutPaymentView(deps, payment);
    if (!created) return ok(c, { payment: view }, 'Payment unchanged');
    // The customer's language, for the mails about this payment (receipt, underpaid).
    await rememberMailLocale(deps.db, payment.id, c.req.header('accept-language'));
    // A hosted page moves to the new payment's own page token; a drop-in session keeps the token the popup has.
    const answer =
      x.kind === 'hosted' ? { session_token: hostedToken(deps, payment.id), payment: view } : { payment: view };
    return ok(c, answer, 'Payment created', 201);
  });
}
