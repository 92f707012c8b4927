import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { askRestSchema } from '../../../api-kit/payment-schemas.js';
import type { AuditAction } from '../../../core/audit/audit-log.js';
import { invalid } from '../../../core/errors.js';
import { acceptAsPaid } from '../../../core/payments/accept.js';
import { askForRest } from '../../../core/payments/ask-rest.js';
import type { Payment } from '../../../core/payments/payment.js';
import type { Database } from '../../../core/store/schema.js';
import { checkSecondFactor, requiresTwoFactor } from '../../../core/users/two-factor.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { paymentRowView } from '../../views.js';

const codeField = { code: z.string().max(40).optional() };
export const dashAcceptSchema = z.strictObject(codeField);
export const dashAskRestSchema = askRestSchema.extend(codeField);

/**
 * Runs a resolution with its audit entry in one transaction. Where the merchant requires two-factor, it takes a fresh
 * code first, as a refund does (dashboard-api/routes/payments/create-refund.ts): a session alone does not settle a payment.
 */
async function resolve(
  x: DashCtx,
  c: Context<DashEnv>,
  action: AuditAction,
  code: string | undefined,
  change: (trx: Kysely<Database>, merchantId: string) => Promise<Payment>,
): Promise<Payment> {
  const merchant = c.get('merchant');
  const p = await audited(
    x,
    c,
    async (trx) => {
      if (await requiresTwoFactor(trx, merchant.id)) {
        if (!code || !(await checkSecondFactor(trx, c.get('signedIn').userId, code, x.deps.clock.now())))
          throw invalid('code', 'A fresh two-factor code is required to resolve a payment');
      }
      return change(trx, merchant.id);
    },
    (r) => ({ action, target: r.id, details: { status: r.status, expires_at: new Date(r.expires_at).toISOString() } }),
  );
  // Told to open pages and the webhook sender once committed (the payment.updated event is in that commit).
  x.deps.changes.publish([{ kind: 'state', payment: p }]);
  x.deps.webhooks.wake();
  return p;
}

/**
 * POST /merchants/{id}/payments/{payment_id}/accept and /ask-rest (owner): the dashboard's "Accept as paid" and
 * "Ask for the rest" (core/payments/accept.ts, ask-rest.ts), the same as the merchant API's routes.
 */
export function registerPaymentExceptions(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/payments/:payment_id/accept', async (c) => {
    const id = idParam(c, 'payment_id', 'Payment');
    const { data } = await readJson(c, dashAcceptSchema, x.deps.limits.bodyBytes);
    const p = await resolve(x, c, 'payment.accept', data.code, (trx, m) =>
      acceptAsPaid(trx, x.deps.clock, x.deps.chains, m, id),
    );
    return ok(c, paymentRowView(p), 'Payment accepted as paid');
  });
  app.post('/merchants/:merchant_id/payments/:payment_id/ask-rest', async (c) => {
    const id = idParam(c, 'payment_id', 'Payment');
    const { data } = await readJson(c, dashAskRestSchema, x.deps.limits.bodyBytes);
    const deps = { clock: x.deps.clock, chains: x.deps.chains, graceSeconds: x.deps.settings.graceSeconds };
    const p = await resolve(x, c, 'payment.ask_rest', data.code, (trx, m) =>
      askForRest(trx, deps, m, id, Date.parse(data.deadline)),
    );
    return ok(c, paymentRowView(p), 'The customer is asked for the rest');
  });
}
