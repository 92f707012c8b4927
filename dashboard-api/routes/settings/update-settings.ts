import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { priceCurrencySchema } from '../../../api-kit/schemas.js';
import { allowedOrigins, getMerchant, type Merchant, updateMerchant } from '../../../core/merchants/merchants.js';
import { audited } from '../../audit.js';
import type { DashCtx, DashEnv } from '../../context.js';

/** An origin as browsers send it: scheme, host and port, nothing more (`https://shop.example`). */
export const originSchema = z
  .string()
  .max(300)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === v;
    } catch {
      return false;
    }
  }, 'Must be an origin such as https://shop.example (scheme, host and port; no path, no trailing slash)');

export const updateSettingsSchema = z.strictObject({
  name: z.string().trim().min(1, 'Required').max(200).optional(),
  allowed_origins: z.array(originSchema).max(50).optional(),
  /** The price currency of requests that name none (API, drop-in, payment links). */
  default_currency: priceCurrencySchema.optional(),
});

/**
 * PATCH /merchants/{id}/settings (owner): shop name, the drop-in's allowed origins and the default price currency;
 * applies at once (the key cache is emptied, so the next API request prices in the new currency).
 */
export function registerUpdateSettings(app: Hono<DashEnv>, x: DashCtx): void {
  app.patch('/merchants/:merchant_id/settings', async (c) => {
    const id = c.get('merchant').id;
    const { data } = await readJson(c, updateSettingsSchema, x.deps.limits.bodyBytes);
    const patch = {
      ...(data.name !== undefined ? { name: data.name } : {}),
      ...(data.allowed_origins !== undefined ? { allowedOrigins: [...new Set(data.allowed_origins)] } : {}),
      ...(data.default_currency !== undefined ? { defaultCurrency: data.default_currency } : {}),
    };
    await audited(
      x,
      c,
      (trx) => updateMerchant(trx, x.deps.clock, id, patch, x.deps.keys),
      () => ({
        action: 'settings.update',
        details: {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.allowedOrigins !== undefined ? { allowed_origins: patch.allowedOrigins } : {}),
          ...(patch.defaultCurrency !== undefined ? { default_currency: patch.defaultCurrency } : {}),
        },
      }),
    );
    const m = (await getMerchant(x.deps.db, id)) as Merchant;
    return ok(
      c,
      { name: m.name, allowed_origins: allowedOrigins(m), default_currency: m.default_currency },
      'Settings saved',
    );
  });
}
