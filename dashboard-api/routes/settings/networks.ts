import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * GET /merchants/{id}/networks: the live networks this service watches and their health: whether the node answered
 * the watcher's last poll (a live asset is payable only then) and the height the watcher has reached.
 */
export function registerNetworks(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/networks', async (c) => {
    const live = x.deps.chains.all().filter((s) => s.mode === 'live');
    const rows = [];
    for (const s of live) {
      rows.push({
        network: s.network,
        healthy: x.deps.chains.isEnabled('live', s.network),
        height: await x.deps.chains.headOf(s.key),
        confirmations: s.requiredConfirmations,
        explorer_url: s.explorerUrl ?? null,
      });
    }
    return ok(c, rows);
  });
}
