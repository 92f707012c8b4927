import { ok } from '../../api-kit/envelope.js';
import { iso } from '../../core/clock.js';
import { Decimal } from '../../core/money/decimal.js';
import { balances } from '../../core/payments/balances.js';
import { balancesSchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';

/** GET /balances (API §4.1, 2.2). */
export const balancesRoute: MerchantRoute = {
  method: 'get',
  path: '/balances',
  operationId: 'getBalances',
  summary: 'Balances per asset',
  description:
    '`amount` = confirmed deposits of finished and partially_paid payments and every confirmed late deposit; `pending_amount` = deposits not yet confirmed; with their USD values.',
  tag: 'Balances',
  success: { status: 200, description: "Balances of the key's merchant", data: balancesSchema },
  errors: [],
  handler: (deps) => async (c) => {
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
  },
};
