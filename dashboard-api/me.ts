import type { Kysely } from 'kysely';
import type { Database } from '../core/store/schema.js';
import { membershipsOf } from '../core/users/memberships.js';
import { csrfTokenOf } from '../core/users/sessions.js';
import { hasTwoFactor, merchantsRequiringTwoFactor } from '../core/users/two-factor.js';

/**
 * What the dashboard needs to know of who is signed in: their address, the merchants they belong to (the merchant
 * switcher, which is also the test/live switch) and the session's CSRF token, which the page sends on every change; whether the user has two-factor on, and which merchants require it
 * (the page sends a member without it to set it up).
 */
export async function meView(db: Kysely<Database>, s: { userId: string; email: string; token: string }) {
  const memberships = (await membershipsOf(db, s.userId)).filter((m) => m.active === 1);
  const required = await merchantsRequiringTwoFactor(
    db,
    memberships.map((m) => m.merchant_id),
  );
  return {
    email: s.email,
    csrf_token: csrfTokenOf(s.token),
    two_factor_enabled: await hasTwoFactor(db, s.userId),
    merchants: memberships.map((m) => ({
      merchant_id: m.merchant_id,
      name: m.name,
      mode: m.mode,
      role: m.role,
      two_factor_required: required.has(m.merchant_id),
    })),
  };
}
export type MeView = Awaited<ReturnType<typeof meView>>;
