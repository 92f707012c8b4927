import type { Kysely } from 'kysely';
import { secretToken } from '../ids.js';
import type { Database } from './schema.js';

/*
 * Service-wide settings kept across restarts (the dropin_settings table): the hosted-page signing secret, the demo
 * storefront's public key.
 */

export async function getSetting(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('dropin_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

export async function putSetting(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto('dropin_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * The value of `key`, created once with `make()` when absent. Insert-if-absent then re-read, so two processes
 * starting together on one store agree on the same value.
 */
export async function ensureSetting(db: Kysely<Database>, key: string, make: () => string): Promise<string> {
  const existing = await getSetting(db, key);
  if (existing !== null) return existing;
  await db
    .insertInto('dropin_settings')
    .values({ key, value: make() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const value = await getSetting(db, key);
  if (value === null) throw new Error(`setting ${key} vanished after insert`);
  return value;
}

/** The secret that signs hosted-page URLs; it lives in the store so links handed out survive restarts. */
export function loadPageSecret(db: Kysely<Database>): Promise<string> {
  return ensureSetting(db, 'page_secret', () => secretToken(32));
}
