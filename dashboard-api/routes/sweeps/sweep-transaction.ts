import type { Hono } from 'hono';
import { toHex } from 'viem';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { forwarders } from '../../../core/chains/families.js';
import { AppError, invalid } from '../../../core/errors.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { forwarderNetworks } from '../../forwarder-networks.js';

export const sweepTransactionSchema = z.strictObject({ network: z.string().min(1).max(40) });
export type SweepTransactionInput = z.infer<typeof sweepTransactionSchema>;

/**
 * POST /merchants/{id}/forwarders/sweep-transaction (owner): the transaction an owner's wallet sends to sweep the
 * merchant's unswept forwarders on a network: one flushMany call to the factory, each forwarder with its own payout
 * (a payout changed since goes on applying to its old payments). Built here from the store, so the browser never
 * supplies an address; anyone may send it, and the funds can only go to the payouts. Nothing is written: the
 * sweeper notices the flush on chain.
 */
export function registerSweepTransaction(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants/:merchant_id/forwarders/sweep-transaction', async (c) => {
    const { data } = await readJson(c, sweepTransactionSchema, x.deps.limits.bodyBytes);
    const m = c.get('merchant');
    const n = forwarderNetworks(x.deps).find((f) => f.config.network === data.network);
    if (!n) throw invalid('network', 'No forwarder factory is configured on this network');
    const problem = n.sweeper.status().factoryProblem;
    if (problem) throw new AppError('CONFLICT', `Sweeps on ${n.config.network} are paused: ${problem}`);
    const sweep =
      m.mode === 'live' ? await forwarders.walletSweep(x.deps.db, n.config, m.id, x.deps.clock.now()) : null;
    if (!sweep) throw new AppError('CONFLICT', `Nothing to sweep on ${n.config.network}`);
    const list = sweep.forwarders;
    return ok(c, {
      network: n.config.network,
      chain_id: toHex(n.config.chainId),
      to: sweep.to,
      data: sweep.data,
      forwarders: list.map((u) => u.forwarder.payment_id),
      payouts: [...new Set(list.map((u) => u.forwarder.payout))],
    });
  });
}
