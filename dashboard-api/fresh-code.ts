import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import { invalid } from '../core/errors.js';
import type { Database } from '../core/store/schema.js';
import { checkSecondFactor, requiresTwoFactor } from '../core/users/two-factor.js';
import type { DashCtx, DashEnv } from './context.js';

/**
 * Where the merchant requires two-factor of its members, a change that moves money (creating a refund, confirming
 * where it goes) takes a fresh code (a TOTP code not used before, or a recovery code): a signed-in session alone
 * does not. A 422 on `code` otherwise, in the change's transaction so nothing is written.
 */
export async function requireFreshCode(
  x: DashCtx,
  c: Context<DashEnv>,
  trx: Kysely<Database>,
  code: string | undefined,
  what: string,
): Promise<void> {
  if (!(await requiresTwoFactor(trx, c.get('merchant').id))) return;
  const userId = c.get('signedIn').userId;
  if (!code || !(await checkSecondFactor(trx, userId, code, x.deps.clock.now())))
    throw invalid('code', `A fresh two-factor code is required to ${what}`);
}
