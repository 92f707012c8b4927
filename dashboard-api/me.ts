import type { Kysely } from 'kysely';
import type { Database } from '../core/store/schema.js';
import { membershipsOf } from '../core/users/memberships.js';
import { csrfTokenOf } from '../core/users/sessions.js';

/**
 * What the dashboard needs to know of who is signed in: their address, the merchants they belong to (the merchant
 * switcher, which is also the test/live switch) and the session's CSRF token, which the page sends on every change.
 */
export async function meView(db: Kysely<Database>, s: { userId: string; email: string; token: string }) {
  const memberships = await membershipsOf(db, s.userId);
  return {
    email: s.email,
    csrf_token: csrfTokenOf(s.token),
    merchants: memberships
      .filter((m) => m.active === 1)
      .map((m) => ({ merchant_id: m.merchant_id, name: m.name, mode: m.mode, role: m.role })),
  };
}
