import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { forwarders } from '../../../core/chains/families.js';
import { parsePayout, setPayout } from '../../../core/forwarders/payouts.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { forwarderNetworks } from '../../forwarder-networks.js';

export const payoutSchema = z.strictObject({ address: z.string().max(200) });
export type PayoutInput = z.infer<typeof payoutSchema>;

/**
 * PUT /merchants/{id}/payout (owner): sets or replaces a live merchant's EVM payout address (core/forwarders/payouts.ts
 * rules: 0x and 20 bytes, a valid EIP-55 checksum when mixed-case, never the zero address). A contract is allowed
 * (a Safe is a fine payout) with a warning naming the networks where the address holds code. Payments already made
 * keep the payout they were created with.
 */
export function registerSetPayout(app: Hono<DashEnv>, x: DashCtx): void {
  app.put('/merchants/:merchant_id/payout', async (c) => {
    const { data } = await readJson(c, payoutSchema, x.deps.limits.bodyBytes);
    // Checked before any node is asked: bad input costs nothing and writes nothing.
    const parsed = parsePayout(data.address);
    if (!parsed.ok) throw parsed.error;
    const r = await audited(
      x,
      c,
      async (trx) => {
        const set = await setPayout(trx, x.deps.clock, c.get('merchant').id, 'evm', parsed.value);
        if (!set.ok) throw set.error;
        return set;
      },
      (set) => ({ action: 'payout.set', details: { chain: 'evm', address: set.value } }),
    );
    const { contractOn, uncheckedOn } = await forwarders.payoutCodeOn(
      forwarderNetworks(x.deps).map((n) => n.config),
      r.value,
    );
    const warnings = [
      ...(contractOn.length
        ? [
            `${r.value} is a contract on ${contractOn.join(', ')}: make sure it can receive the native coin and tokens there, and that you control it on every network.`,
          ]
        : []),
      ...(uncheckedOn.length
        ? [`Could not check ${uncheckedOn.join(', ')} for contract code: the node did not answer.`]
        : []),
    ];
    return ok(c, { chain: 'evm', address: r.value, contract_on: contractOn, warnings }, 'Payout address saved');
  });
}
