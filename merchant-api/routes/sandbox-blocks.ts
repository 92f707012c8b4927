import { z } from 'zod';
import { readJson } from '../../api-kit/body.js';
import { ok } from '../../api-kit/envelope.js';
import { requestHeader } from '../../api-kit/node-request.js';
import { simulated } from '../../core/chains/families.js';
import { chainKey } from '../../core/chains/types.js';
import { invalid } from '../../core/errors.js';
import { bodyErrors } from '../openapi/operation.js';
import { sandboxBlocksResultSchema } from '../openapi/responses.js';
import type { MerchantRoute } from '../route.js';
import { requireTestMode } from './sandbox-transfers.js';

export const sandboxBlocksSchema = z.strictObject({
  count: z.number().int().min(1).max(100).default(1),
  network: z.string().min(1).max(20).optional(),
});

/** POST /sandbox/blocks: mines blocks on one network, or on every sandbox network when none is named. */
export const sandboxBlocksRoute: MerchantRoute = {
  method: 'post',
  path: '/sandbox/blocks',
  operationId: 'mineSandboxBlocks',
  summary: 'Mine sandbox blocks (test mode)',
  description: 'An empty POST mines one block on every sandbox network. Live keys get 400.',
  tag: 'Sandbox',
  body: { schema: sandboxBlocksSchema, required: false, example: { count: 2, network: 'btc' } },
  success: { status: 200, description: 'Blocks mined', data: sandboxBlocksResultSchema },
  errors: bodyErrors,
  handler: (deps) => async (c) => {
    requireTestMode(c);
    // An empty POST mines one block everywhere.
    const { data } =
      requestHeader(c, 'content-length') === '0' || !requestHeader(c, 'content-type')
        ? { data: sandboxBlocksSchema.parse({}) }
        : await readJson(c, sandboxBlocksSchema, deps.limits.bodyBytes);
    const networks = [...new Set(deps.catalog.list().map((a) => a.network))];
    const chosen = data.network ? networks.filter((n) => n === data.network?.toLowerCase()) : networks;
    if (chosen.length === 0)
      throw invalid('network', `Unknown network "${data.network}"; one of ${networks.join(', ')}`);
    const heights = new Map<string, number>();
    for (const n of chosen) {
      heights.set(n, await simulated.mine(deps.db, deps.clock, n, data.count));
      await deps.watchers.sync(chainKey('test', n));
    }
    return ok(
      c,
      { height: Math.max(...heights.values()), heights: Object.fromEntries(heights) },
      `Mined ${data.count} block(s)`,
    );
  },
};
