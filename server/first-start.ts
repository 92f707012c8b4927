import type { ApiDeps } from '../api-kit/deps.js';
import { secretToken } from '../core/ids.js';
import { createMerchant, listMerchants } from '../core/merchants/merchants.js';
import { withStoreLock } from '../core/store/store-lock.js';
import { addUser } from '../core/users/accounts.js';
import { DEMO_MERCHANT_NAME, rememberDemoKey } from '../dropin-api/demo.js';

/** The demo merchant's dashboard user, created with it on an empty store. */
export const DEMO_USER_EMAIL = 'demo@example.com';

/** Whether the store has no merchant yet (a first start). */
export async function isEmptyStore(db: ApiDeps['db']): Promise<boolean> {
  return (await listMerchants(db)).length === 0;
}

/**
 * On an empty store, creates the demo test-mode merchant and its dashboard owner and returns the lines to print
 * once (keys and sign-in); null when the store already has merchants. Several processes starting together on a
 * fresh store (replicas, `docker compose up --scale`) take turns through a store lock, so exactly one creates it.
 */
export async function createDemoOnFirstStart(deps: ApiDeps, publicUrl: string): Promise<string[] | null> {
  return withStoreLock(deps.db, 'first-start', async () => {
    if ((await listMerchants(deps.db)).length > 0) return null;
    const demo = await createMerchant(deps.db, deps.clock, { name: DEMO_MERCHANT_NAME, mode: 'test' });
    // The demo storefront (/demo/) needs the public key; public keys are meant to be published.
    await rememberDemoKey(deps.db, demo.public_key);
    // The dashboard's demo owner, printed once beside the keys; stored only hashed like every password.
    const demoPassword = secretToken(12);
    await addUser(deps, {
      merchantId: demo.merchant_id,
      email: DEMO_USER_EMAIL,
      role: 'owner',
      password: demoPassword,
    });
    return [
      '',
      'Created a demo test-mode merchant (keys are shown once; they are stored only as hashes):',
      `  merchant_id     ${demo.merchant_id}`,
      `  secret key      ${demo.secret_key}   (server side, X-API-Key on /api/v1)`,
      `  public key      ${demo.public_key}   (browser drop-in)`,
      `  webhook secret  ${demo.webhook_secret}`,
      '',
      `Try: curl -H 'X-API-Key: ${demo.secret_key}' ${publicUrl}/api/v1/currencies`,
      '',
      `Dashboard: ${publicUrl}/dashboard/  sign in as ${DEMO_USER_EMAIL}, password ${demoPassword} (shown once)`,
      '',
    ];
  });
}
