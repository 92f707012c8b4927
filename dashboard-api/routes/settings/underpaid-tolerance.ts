import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import {
  MAX_TOLERANCE_BPS,
  MAX_TOLERANCE_USD,
  setUnderpaidTolerance,
  underpaidToleranceOf,
} from '../../../core/merchants/underpaid-tolerance.js';
import { usdToCents } from '../../../core/money/decimal.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

const maxCents = usdToCents(MAX_TOLERANCE_USD) as bigint;

export const underpaidToleranceSchema = z.strictObject({
  bps: z
    .number({ message: `Must be a whole number of basis points from 0 to ${MAX_TOLERANCE_BPS}` })
    .int(`Must be a whole number of basis points from 0 to ${MAX_TOLERANCE_BPS}`)
    .min(0, `Must be a whole number of basis points from 0 to ${MAX_TOLERANCE_BPS}`)
    .max(MAX_TOLERANCE_BPS, `Must be a whole number of basis points from 0 to ${MAX_TOLERANCE_BPS}`),
  usd: z
    .string({ message: `Must be a USD amount as text with at most 2 decimals, from 0 to ${MAX_TOLERANCE_USD}` })
    .regex(
      /^[0-9]{1,9}(\.[0-9]{1,2})?$/,
      `Must be a USD amount with at most 2 decimals, from 0 to ${MAX_TOLERANCE_USD}`,
    )
    .refine(
      (v) => (usdToCents(v) ?? maxCents + 1n) <= maxCents,
      `Must be a USD amount with at most 2 decimals, from 0 to ${MAX_TOLERANCE_USD}`,
    ),
});

/** Canonical text of a validated USD amount: '1.5' and '1.50' are stored alike, as '1.50'; none is '0'. */
function canonicalUsd(v: string): string {
  const cents = usdToCents(v) ?? 0n;
  return cents === 0n ? '0' : `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/**
 * GET and PUT /merchants/{id}/underpaid-tolerance: the shortfall a payment may have and still finish, in basis
 * points of its amount and as an absolute USD amount (converted with each payment's own quote; the larger wins).
 * Changing it is an owner's action, audited.
 */
export function registerUnderpaidTolerance(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/underpaid-tolerance', async (c) =>
    ok(c, await underpaidToleranceOf(x.deps.db, c.get('merchant').id)),
  );
  app.put('/merchants/:merchant_id/underpaid-tolerance', async (c) => {
    const { data } = await readJson(c, underpaidToleranceSchema, x.deps.limits.bodyBytes);
    const t = { bps: data.bps, usd: canonicalUsd(data.usd) };
    await audited(
      x,
      c,
      (trx) => setUnderpaidTolerance(trx, c.get('merchant').id, t, x.deps.clock.now()),
      () => ({ action: 'settings.tolerance', details: { bps: t.bps, usd: t.usd } }),
    );
    return ok(c, t, 'Underpaid tolerance saved');
  });
}
export type Tolerance = Awaited<ReturnType<typeof underpaidToleranceOf>>;
