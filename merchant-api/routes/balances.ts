import type { Hono } from 'hono';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { iso } from '../../core/clock.js';
import { Decimal } from '../../core/money/decimal.js';
import { balances } from '../../core/payments/balances.js';
import type { MerchantEnv } from '../auth.js';
import type { Operation } from '../openapi/operation.js';
import { balancesSchema } from '../openapi/responses.js';

/** GET /balances (API §4.1, 2.2). */
export function registerBalances(app: Hono<MerchantEnv>, deps: ApiDeps): void {
  app.get('/balances', async (c) => {
    const m = c.get('merchant');
    const list = await balances(deps, m.id, m.mode);
    return ok(c, {
      sub_partner_id: m.sub_partner_id,
      balances: list.map((b) => ({
        currency: b.currency,
        amount: new Decimal(b.amount),
        pending_amount: new Decimal(b.pendingAmount),
        usd_amount: new Decimal(b.usdAmount),
        pending_usd_amount: new Decimal(b.pendingUsdAmount),
        updated_at: iso(b.updatedAt),
      })),
    });
  });
}

export const balancesOperation: Operation = {
  method: 'get',
  path: '/balances',
  operationId: 'getBalances',
  summary: 'Balances per asset',
  description:
    '`amount` = confirmed deposits of finished and partially_paid payments and every confirmed late deposit; `pending_amount` = deposits not yet confirmed; with their USD values.',
  tag: 'Balances',
  success: { status: 200, description: "Balances of the key's merchant", data: balancesSchema },
  errors: [],
};
