import type { Hono } from 'hono';
import { z } from 'zod';
import { readJson } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { idParam } from '../../../api-kit/path-params.js';
import { AppError } from '../../../core/errors.js';
import {
  getNotifyPrefs,
  type NotifyPrefs,
  notifyDeliveries,
  notifyEvents,
  saveNotifyPrefs,
} from '../../../core/notifications/prefs.js';
import { roleIn } from '../../../core/users/memberships.js';
import { type DashCtx, type DashEnv, refuseWithoutTwoFactor } from '../../context.js';

export const notificationPrefsSchema = z.strictObject({
  events: z
    .array(z.enum(notifyEvents, { message: `Each must be one of ${notifyEvents.join(', ')}` }))
    .max(notifyEvents.length, `At most ${notifyEvents.length} events`),
  delivery: z.enum(notifyDeliveries, { message: `Must be one of ${notifyDeliveries.join(', ')}` }),
});

/** A member's notification choices for one merchant, and the hour (UTC) its daily digest goes out. */
export const notifyPrefsView = (merchantId: string, p: NotifyPrefs, digestHour = 7) => ({
  merchant_id: merchantId,
  events: p.events,
  delivery: p.delivery,
  digest_hour_utc: digestHour,
});

/**
 * GET and PUT /account/notifications/{merchant_id}: which merchant events the signed-in member is mailed, at once
 * or in a daily digest. Any role but a cashier may choose its own (a viewer reads the payments it would be told of), so this lives
 * under /account rather than the merchant's routes where only owners change things. A personal preference: it
 * changes nothing of the merchant's, so it writes no audit entry (listed in the audit walk's NOT_CHANGES).
 */
export function registerNotificationPrefs(app: Hono<DashEnv>, x: DashCtx): void {
  const digestHour = x.deps.settings.notifyDigestHour;
  // The merchant's own rules for its data hold here too: a cashier sees the point of sale only, and a merchant
  // that requires two-factor tells nothing to a member without it.
  const member = async (userId: string, merchantId: string) => {
    const role = await roleIn(x.deps.db, userId, merchantId);
    if (!role) throw new AppError('NOT_FOUND', 'Merchant not found');
    if (role === 'cashier')
      throw new AppError(
        'FORBIDDEN',
        "Cashiers take payments at the point of sale: the merchant's notifications are for its other members",
      );
    await refuseWithoutTwoFactor(x, userId, merchantId);
  };
  app.get('/account/notifications/:merchant_id', async (c) => {
    const merchantId = idParam(c, 'merchant_id', 'Merchant');
    const userId = c.get('signedIn').userId;
    await member(userId, merchantId);
    return ok(c, notifyPrefsView(merchantId, await getNotifyPrefs(x.deps.db, userId, merchantId), digestHour));
  });
  app.put('/account/notifications/:merchant_id', async (c) => {
    const merchantId = idParam(c, 'merchant_id', 'Merchant');
    const userId = c.get('signedIn').userId;
    await member(userId, merchantId);
    const { data } = await readJson(c, notificationPrefsSchema, x.deps.limits.bodyBytes);
    const prefs: NotifyPrefs = { events: [...new Set(data.events)], delivery: data.delivery };
    await saveNotifyPrefs(x.deps.db, userId, merchantId, prefs, x.deps.clock.now());
    return ok(c, notifyPrefsView(merchantId, prefs, digestHour), 'Notification choices saved');
  });
}
