import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { AppError } from '../../../core/errors.js';
import { createMerchant } from '../../../core/merchants/merchants.js';
import { insertMembership, membershipsOf } from '../../../core/users/memberships.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

export const createMerchantSchema = z.strictObject({
  name: z.string().trim().min(1, 'Required').max(200),
  mode: z.enum(['test', 'live'], { error: 'Must be test or live' }),
});

/** A new store and its keys and webhook secret, shown this once (stored hashed). */
export function createdMerchantView(
  created: Awaited<ReturnType<typeof createMerchant>>,
  data: z.infer<typeof createMerchantSchema>,
) {
  return {
    merchant_id: created.merchant_id,
    name: data.name,
    mode: data.mode,
    secret_key: created.secret_key,
    public_key: created.public_key,
    webhook_secret: created.webhook_secret,
  };
}

/**
 * POST /merchants (an owner of any merchant): another store, as `admin merchant create` makes it, with the signed-in
 * user as its owner. Its keys and webhook secret are in this answer only (stored hashed, as the CLI's); the entry in
 * the new store's audit log records who made it. Viewers cannot: making a store is an owner's decision.
 */
export function registerCreateMerchant(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/merchants', async (c) => {
    const signedIn = c.get('signedIn');
    const { data } = await readJson(c, createMerchantSchema, x.deps.limits.bodyBytes);
    const mine = await membershipsOf(x.deps.db, signedIn.userId);
    if (!mine.some((m) => m.role === 'owner'))
      throw new AppError('FORBIDDEN', 'Only an owner of a merchant can create another one');
    const created = await audited(
      x,
      c,
      async (trx) => {
        const m = await createMerchant(trx, x.deps.clock, { name: data.name, mode: data.mode });
        await insertMembership(trx, {
          user_id: signedIn.userId,
          merchant_id: m.merchant_id,
          role: 'owner',
          created_at: x.deps.clock.now(),
        });
        return m;
      },
      (m) => ({
        merchantId: m.merchant_id,
        action: 'merchant.create',
        target: m.merchant_id,
        details: { name: data.name, mode: data.mode },
      }),
    );
    return ok(c, createdMerchantView(created, data), 'Merchant created: save its keys now, they are shown once', 201);
  });
}
