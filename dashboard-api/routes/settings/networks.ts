import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import type { ChainSource } from '../../../core/chains/types.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** A live network's health: whether its node answered the last poll, and the watcher's height. */
export async function networkView(x: DashCtx, s: ChainSource) {
  return {
    network: s.network,
    healthy: x.deps.chains.isEnabled('live', s.network),
    height: await x.deps.chains.headOf(s.key),
    confirmations: s.requiredConfirmations,
    explorer_url: s.explorerUrl ?? null,
  };
}

/**
 * GET /merchants/{id}/networks: the live networks this service watches and their health: whether the node answered
 * the watcher's last poll (a live asset is payable only then) and the height the watcher has reached.
 */
export function registerNetworks(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/networks', async (c) => {
    const live = x.deps.chains.all().filter((s) => s.mode === 'live');
    const rows = [];
    for (const s of live) rows.push(await networkView(x, s));
    return ok(c, rows);
  });
}
