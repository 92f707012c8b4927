import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { listMerchants, rotateKey } from '../core/merchants/merchants.js';
import type { Database } from '../core/store/schema.js';
import { getSetting, putSetting } from '../core/store/settings.js';

const DEMO_KEY = 'demo_public_key';
export const DEMO_MERCHANT_NAME = 'Demo store';

/**
 * The demo storefront needs the demo merchant's public key, which is otherwise stored only hashed. `npm start`
 * remembers it here when it creates the demo merchant (a public key is meant to be published). A store from
 * before this existed gets a fresh demo public key once (the old one is deactivated).
 */
export async function rememberDemoKey(db: Kysely<Database>, publicKey: string): Promise<void> {
  await putSetting(db, DEMO_KEY, publicKey);
}

export async function demoPublicKey(db: Kysely<Database>): Promise<string | null> {
  return getSetting(db, DEMO_KEY);
}

/** Returns the demo key, issuing one for an existing test-mode "Demo store" merchant when none is remembered. */
export async function ensureDemoKey(db: Kysely<Database>, clock: Clock): Promise<string | null> {
  const known = await demoPublicKey(db);
  if (known) return known;
  const demo = (await listMerchants(db)).find(
    (m) => m.name === DEMO_MERCHANT_NAME && m.mode === 'test' && m.active === 1,
  );
  if (!demo) return null;
  const key = await rotateKey(db, clock, demo.id, 'public');
  await rememberDemoKey(db, key);
  return key;
}
