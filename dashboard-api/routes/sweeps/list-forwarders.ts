import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { forwarders } from '../../../core/chains/families.js';
import { isoOrNull } from '../../../core/clock.js';
import type { Merchant } from '../../../core/merchants/merchants.js';
import { fromUnits } from '../../../core/money/decimal.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { forwarderNetworks } from '../../forwarder-networks.js';

/**
 * GET /merchants/{id}/forwarders: per EVM network with a forwarder factory, the merchant's unswept forwarders with
 * their amounts (exact decimal strings) and retry state, and the sweeper's state: its relayer (or none: then the
 * owner sweeps from a wallet) and why it is waiting. Swept forwarders leave the list once the sweeper sees the
 * flush on chain.
 */
export function registerListForwarders(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/forwarders', async (c) => {
    return ok(c, await forwarderNetworksView(x, c.get('merchant')));
  });
}

/** Each forwarder network's sweeper state and this merchant's unswept forwarders on it (live merchants only). */
async function forwarderNetworksView(x: DashCtx, m: Merchant) {
  const out = [];
  for (const n of forwarderNetworks(x.deps)) {
    const status = n.sweeper.status();
    const list = m.mode === 'live' ? await forwarders.unswept(x.deps.db, n.config, m.id, x.deps.clock.now()) : [];
    out.push({
      network: n.config.network,
      chain_id: n.config.chainId,
      factory: status.factory,
      factory_problem: status.factoryProblem,
      relayer: status.relayer,
      waiting: status.waiting,
      explorer_url: n.config.explorerUrl,
      payouts: [...new Set(list.map((u) => u.forwarder.payout))],
      wallet_sweep_max: forwarders.walletSweepMax,
      forwarders: list.map((u) => ({
        payment_id: u.forwarder.payment_id,
        address: u.forwarder.address,
        payout: u.forwarder.payout,
        amounts: [...u.units].map(([code, units]) => ({
          currency: code,
          amount: fromUnits(units, x.deps.catalog.get(code)?.decimals ?? 0),
        })),
        relayer_sweep_pending: u.forwarder.pending_sweep_id !== null,
        sweep_error: u.forwarder.sweep_error,
        next_sweep_at: isoOrNull(u.forwarder.next_sweep_at),
      })),
    });
  }
  return out;
}
export type NetworkSweeps = Awaited<ReturnType<typeof forwarderNetworksView>>[number];
