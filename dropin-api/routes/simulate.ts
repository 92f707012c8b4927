import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { requestHeader } from '../../api-kit/node-request.js';
import { simulated } from '../../core/chains/families.js';
import { currentPayment } from '../../core/checkout/checkout.js';
import { AppError, invalid } from '../../core/errors.js';
import { toUnits } from '../../core/money/decimal.js';
import { paymentAsset } from '../../core/payments/payment.js';
import { findPayment } from '../../core/payments/store.js';
import type { DropinEnv } from '../context.js';
import { checkoutPaymentView } from '../views.js';

export const simulateSchema = z.strictObject({
  /** Send a transfer (false: only mine blocks, to move confirmations on). @default true */
  pay: z.boolean().default(true),
  /** Amount to send as decimal text. @default what is still due */
  amount: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'Must be a positive decimal amount')
    .optional(),
  /** Blocks to mine after sending. @default 1 */
  blocks: z.number().int().min(0).max(10).default(1),
});

/**
 * POST /sessions/{token}/simulate, test mode only: the popup's "Simulate payment" button. It pays the current
 * payment on the sandbox chain exactly as a wallet would (a transfer to its address, then blocks), and the
 * normal watcher path does the rest, so webhooks and status follow as in production.
 */
export function registerSimulate(app: Hono<DropinEnv>, deps: ApiDeps) {
  app.post('/sessions/:token/simulate', async (c) => {
    const x = c.get('checkout');
    if (x.merchant.mode !== 'test')
      throw new AppError(
        'BAD_REQUEST',
        'Simulated payments exist in test mode only; live payments are paid from a wallet',
      );
    const { data } = requestHeader(c, 'content-type')
      ? await readJson(c, simulateSchema, deps.limits.bodyBytes, { plainText: true })
      : { data: simulateSchema.parse({}) };
    const p = await currentPayment(deps, x);
    if (!p) throw new AppError('CONFLICT', 'Choose a currency first: this checkout has no payment yet');
    const asset = paymentAsset(deps.catalog, p);
    if (data.pay) {
      const due = BigInt(p.pay_amount_units) - BigInt(p.actually_paid_units);
      const units = data.amount === undefined ? due : toUnits(data.amount, asset.decimals);
      if (units === null || units <= 0n) {
        throw invalid(
          'amount',
          data.amount === undefined
            ? 'Nothing is left to pay'
            : `Must be a positive amount with at most ${asset.decimals} decimals`,
        );
      }
      await simulated.send(deps.db, deps.clock, { asset, address: p.pay_address, extraId: p.extra_id, units });
    }
    if (data.blocks > 0) await simulated.mine(deps.db, deps.clock, p.network, data.blocks);
    await deps.watchers.sync(deps.chains.chainKeyOf(p));
    const fresh = (await findPayment(deps.db, p.id)) ?? p;
    return ok(c, { payment: await checkoutPaymentView(deps, fresh) }, 'Simulated on the sandbox chain');
  });
}
