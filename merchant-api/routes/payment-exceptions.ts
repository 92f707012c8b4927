import type { Kysely } from 'kysely';
import { readJson, refuseBody } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { idParam } from '../../api-kit/path-params.js';
import { askRestSchema, paymentStatusViewSchema } from '../../api-kit/payment-schemas.js';
import { paymentStatusView } from '../../api-kit/payment-views.js';
import { type AuditAction, recordAudit } from '../../core/audit/audit-log.js';
import { acceptAsPaid } from '../../core/payments/accept.js';
import { askForRest, MAX_REST_DAYS } from '../../core/payments/ask-rest.js';
import type { Payment } from '../../core/payments/payment.js';
import type { Database } from '../../core/store/schema.js';
import { bodyErrors } from '../openapi/operation.js';
import type { MerchantRoute } from '../route.js';

/**
 * Runs a resolution and its audit entry (actor: the API key, `via: api`) in one transaction, then tells open pages
 * and wakes the webhook sender: the payment.updated event was written in that same transaction.
 */
async function resolved(
  deps: ApiDeps,
  merchantId: string,
  action: AuditAction,
  change: (trx: Kysely<Database>) => Promise<Payment>,
): Promise<Payment> {
  const p = await deps.db.transaction().execute(async (trx) => {
    const r = await change(trx);
    await recordAudit(trx, deps.clock.now(), {
      merchantId,
      actor: null,
      action,
      target: r.id,
      details: { via: 'api', status: r.status },
    });
    return r;
  });
  deps.changes.publish([{ kind: 'state', payment: p }]);
  deps.webhooks.wake();
  return p;
}

const pathParams = { payment_id: { description: 'Payment id', example: 'pay_8fJ2kLq0Zx' } };

/**
 * POST /payments/{payment_id}/accept and /payments/{payment_id}/ask-rest: the merchant resolves a payment that was
 * paid short or late (issue 30 item 5), exactly as the dashboard's buttons do (core/payments/accept.ts, ask-rest.ts).
 */
export const acceptPaymentRoute: MerchantRoute = {
  method: 'post',
  path: '/payments/{payment_id}/accept',
  operationId: 'acceptPayment',
  summary: 'Accept a partly or late paid payment as paid',
  description:
    'A `partially_paid` payment, or an `expired` or `failed` one that received something, becomes `finished` and stays so; a `payment.updated` webhook follows and the acceptance is in the audit log. Any other payment is a 400. The route takes no request body.',
  tag: 'Payments',
  pathParams,
  success: { status: 200, description: 'The payment, now finished', data: paymentStatusViewSchema },
  errors: [400, 404, 413],
  handler: (deps) => async (c) => {
    const id = idParam(c, 'payment_id', 'Payment');
    await refuseBody(c);
    const merchantId = c.get('merchant').id;
    const p = await resolved(deps, merchantId, 'payment.accept', (trx) =>
      acceptAsPaid(trx, deps.clock, deps.chains, merchantId, id),
    );
    return ok(c, paymentStatusView(p), 'Payment accepted as paid');
  },
};

export const askRestRoute: MerchantRoute = {
  method: 'post',
  path: '/payments/{payment_id}/ask-rest',
  operationId: 'askForRest',
  summary: 'Ask the customer for the rest of a partly paid payment',
  description: `A \`partially_paid\` payment stays payable on the same address until \`deadline\` (at most ${MAX_REST_DAYS} days ahead): its \`expires_at\` becomes the deadline, the hosted page shows the exact remainder, the customer is e-mailed, and a remainder paid in time finishes it. A \`payment.updated\` webhook follows. Another status is a 400.`,
  tag: 'Payments',
  pathParams,
  body: { schema: askRestSchema, required: true, example: { deadline: '2026-12-01T12:00:00Z' } },
  success: { status: 200, description: 'The payment with its new deadline', data: paymentStatusViewSchema },
  errors: [...bodyErrors, 404],
  handler: (deps) => async (c) => {
    const id = idParam(c, 'payment_id', 'Payment');
    const { data } = await readJson(c, askRestSchema, deps.limits.bodyBytes);
    const merchantId = c.get('merchant').id;
    const deps2 = { clock: deps.clock, chains: deps.chains, graceSeconds: deps.settings.graceSeconds };
    const p = await resolved(deps, merchantId, 'payment.ask_rest', (trx) =>
      askForRest(trx, deps2, merchantId, id, Date.parse(data.deadline)),
    );
    return ok(c, paymentStatusView(p), 'The customer is asked for the rest');
  },
};
