import type { Hono } from 'hono';
import type { ApiDeps } from '../../api-kit/deps.js';
import { ok } from '../../api-kit/envelope.js';
import { chainKey } from '../../core/chains/types.js';
import { isoOrNull } from '../../core/clock.js';
import { unsweptForwarders } from '../../core/forwarders/store.js';
import { fromUnits } from '../../core/money/decimal.js';
import type { DashCtx, DashEnv } from '../context.js';
import { type ForwarderNetwork, forwarderNetworks } from '../forwarder-networks.js';

/** At most this many forwarders go into one wallet sweep (one flushMany): a block's gas limit bounds it. */
export const WALLET_SWEEP_MAX = 100;

/** The merchant's forwarders on a network holding confirmed deposits that no flush covered yet, oldest first. */
export async function merchantUnswept(deps: ApiDeps, n: ForwarderNetwork, merchantId: string) {
  const key = chainKey('live', n.config.network);
  const head = await deps.chains.headOf(key);
  if (head === null) return [];
  return unsweptForwarders(deps.db, {
    network: n.config.network,
    chainKey: key,
    confirmedHeight: head - deps.chains.requiredConfirmations(key) + 1,
    now: deps.clock.now(),
    merchantId,
  });
}

/**
 * GET /merchants/{id}/forwarders: per EVM network with a forwarder factory, the merchant's unswept forwarders with
 * their amounts (exact decimal strings) and retry state, and the sweeper's state: its relayer (or none: then the
 * owner sweeps from a wallet) and why it is waiting. Swept forwarders leave the list once the sweeper sees the
 * flush on chain.
 */
export function registerListForwarders(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/forwarders', async (c) => {
    const m = c.get('merchant');
    const out = [];
    for (const n of forwarderNetworks(x.deps)) {
      const status = n.sweeper.status();
      const list = m.mode === 'live' ? await merchantUnswept(x.deps, n, m.id) : [];
      out.push({
        network: n.config.network,
        chain_id: n.config.chainId,
        factory: status.factory,
        factory_problem: status.factoryProblem,
        relayer: status.relayer,
        waiting: status.waiting,
        explorer_url: n.config.explorerUrl,
        payouts: [...new Set(list.map((u) => u.forwarder.payout))],
        wallet_sweep_max: WALLET_SWEEP_MAX,
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
    return ok(c, out);
  });
}
