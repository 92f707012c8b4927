import type { Kysely, Selectable } from 'kysely';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import type { FiatCode } from '../money/fiat.js';
import type { Database, MerchantTable } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import type { KeyCache } from './key-cache.js';
import {
  displayPrefix,
  generateKey,
  generateWebhookSecret,
  hashesEqual,
  hashKey,
  type KeyKind,
  keyKindOf,
  type Mode,
} from './keys.js';

export type Merchant = Selectable<MerchantTable>;

export interface CreatedMerchant {
  merchant_id: string;
  sub_partner_id: string;
  mode: Mode;
  secret_key: string;
  public_key: string;
  webhook_secret: string;
}

export interface NewMerchant {
  name: string;
  mode: Mode;
  webhookUrl?: string | null;
  allowedOrigins?: string[];
}

/** Creates a merchant with one secret and one public key. The keys are returned once and stored only hashed. */
export async function createMerchant(db: Kysely<Database>, clock: Clock, input: NewMerchant): Promise<CreatedMerchant> {
  const now = clock.now();
  const id = newId('mer', 16);
  const subPartnerId = newId('sub', 16);
  const webhookSecret = generateWebhookSecret();
  const secretKey = generateKey('secret', input.mode);
  const publicKey = generateKey('public', input.mode);
  // The caller's transaction when it has one (a store made in the dashboard and its audit entry commit together).
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('merchants')
      .values({
        id,
        sub_partner_id: subPartnerId,
        name: input.name,
        mode: input.mode,
        webhook_url: input.webhookUrl ?? null,
        webhook_secret: webhookSecret,
        webhook_enabled: 1,
        allowed_origins: JSON.stringify(input.allowedOrigins ?? []),
        underpaid_tolerance_bps: 0,
        active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await insertKey(trx, id, 'secret', secretKey, now);
    await insertKey(trx, id, 'public', publicKey, now);
  });
  return {
    merchant_id: id,
    sub_partner_id: subPartnerId,
    mode: input.mode,
    secret_key: secretKey,
    public_key: publicKey,
    webhook_secret: webhookSecret,
  };
}

async function insertKey(
  db: Kysely<Database>,
  merchantId: string,
  kind: KeyKind,
  key: string,
  now: number,
  label: string | null = null,
): Promise<string> {
  const id = newId('key', 16);
  await db
    .insertInto('api_keys')
    .values({
      id,
      merchant_id: merchantId,
      kind,
      prefix: displayPrefix(key),
      key_hash: hashKey(key),
      active: 1,
      created_at: now,
      deactivated_at: null,
      last_used_at: null,
      label,
      expires_at: null,
    })
    .execute();
  return id;
}

export interface KeyMatch {
  merchant: Merchant;
  kind: KeyKind;
  /** The key's id (`key_...`), for its last-used time (key-usage.ts). */
  keyId: string;
  /** End of a rotated key's grace period (null: none): refused from then on, cached or not. */
  expiresAt: number | null;
}

/**
 * Resolves a presented key to its merchant, or null when the key is unknown, inactive, past its grace period at
 * `now`, or its merchant is inactive. With the service's key cache (key-cache.ts) a hit costs no store read; the
 * grace end is checked on every hit, so a cached old key stops at its end to the millisecond.
 */
export async function findMerchantByKey(
  db: Kysely<Database>,
  key: string,
  cache: KeyCache | undefined,
  now: number,
): Promise<KeyMatch | null> {
  const kind = keyKindOf(key);
  if (!kind || key.length > 200) return null;
  const hash = hashKey(key);
  const found = await (cache ? cache.get(hash, () => loadKey(db, hash)) : loadKey(db, hash));
  return found && (found.expiresAt === null || found.expiresAt > now) ? found : null;
}

async function loadKey(db: Kysely<Database>, hash: string): Promise<KeyMatch | null> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('merchants', 'merchants.id', 'api_keys.merchant_id')
    .selectAll('merchants')
    .select([
      'api_keys.key_hash',
      'api_keys.active as key_active',
      'api_keys.kind as key_kind',
      'api_keys.id as key_id',
      'api_keys.expires_at as key_expires_at',
    ])
    .where('api_keys.key_hash', '=', hash)
    .executeTakeFirst();
  if (!row || !hashesEqual(row.key_hash, hash) || row.key_active !== 1 || row.active !== 1) return null;
  const { key_hash: _h, key_active: _a, key_kind, key_id, key_expires_at, ...merchant } = row;
  return {
    merchant,
    kind: key_kind,
    keyId: key_id,
    expiresAt: key_expires_at === null ? null : Number(key_expires_at),
  };
}

/**
 * Why a merchant cannot hold live-payment settings (an xpub, a payout address), or null when it can: it must exist
 * and be live (test mode pays to sandbox addresses).
 *
 * @example await notLiveMerchant(trx, 'mer_1', 'have a payout address') // AppError BAD_REQUEST for a test merchant
 */
export async function notLiveMerchant(db: Kysely<Database>, id: string, needs: string): Promise<AppError | null> {
  const m = await db.selectFrom('merchants').select('mode').where('id', '=', id).executeTakeFirst();
  if (!m) return new AppError('NOT_FOUND', `Merchant ${id} not found`);
  if (m.mode !== 'live')
    return new AppError('BAD_REQUEST', `Only live merchants ${needs}; test mode pays to sandbox addresses`);
  return null;
}

export async function getMerchant(db: Kysely<Database>, id: string): Promise<Merchant | undefined> {
  return db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listMerchants(db: Kysely<Database>): Promise<Merchant[]> {
  return db.selectFrom('merchants').selectAll().orderBy('created_at').execute();
}

/** Whether any merchant takes real money: start-up then needs the settings live payments need (PUBLIC_URL). */
export async function hasLiveMerchant(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('merchants').select('id').where('mode', '=', 'live').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function listKeys(db: Kysely<Database>, merchantId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'kind', 'prefix', 'label', 'active', 'created_at', 'deactivated_at', 'last_used_at', 'expires_at'])
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at')
    .execute();
}

/*
 * Key and merchant writes take the service's key cache, when they run in the service, and empty it: the change
 * applies to the next request at once. Run elsewhere (the admin CLI), it applies within the cache's TTL.
 */

/** Issues a new key of `kind` and deactivates the merchant's previous ones of that kind, in one transaction. */
export async function rotateKey(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  kind: KeyKind,
  cache?: KeyCache,
): Promise<string> {
  const merchant = await getMerchant(db, merchantId);
  if (!merchant) throw new AppError('NOT_FOUND', `merchant ${merchantId} not found`);
  const key = generateKey(kind, merchant.mode);
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('api_keys')
      .set({ active: 0, deactivated_at: now })
      .where('merchant_id', '=', merchantId)
      .where('kind', '=', kind)
      .where('active', '=', 1)
      .execute();
    await insertKey(trx, merchantId, kind, key, now);
  });
  cache?.invalidate();
  return key;
}

/** Issues one more key of `kind` for a merchant, leaving its other keys as they are. Returned once. */
export async function issueKey(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  kind: KeyKind,
  label: string | null = null,
): Promise<{ id: string; key: string }> {
  const merchant = await getMerchant(db, merchantId);
  if (!merchant) throw new AppError('NOT_FOUND', `merchant ${merchantId} not found`);
  const key = generateKey(kind, merchant.mode);
  return { id: await insertKey(db, merchantId, kind, key, clock.now(), label), key };
}

/** Names a key of a merchant; false when the merchant has no such key. */
export async function setKeyLabel(
  db: Kysely<Database>,
  merchantId: string,
  keyId: string,
  label: string | null,
): Promise<boolean> {
  const res = await db
    .updateTable('api_keys')
    .set({ label })
    .where('id', '=', keyId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The longest grace period a rotated key may keep working (a week). */
export const MAX_KEY_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Replaces one active key of a merchant by a new key of its kind (keeping its label), in one transaction. The old
 * key stops working at once (`graceMs` 0) or keeps working until now + `graceMs`, so the merchant can deploy the new
 * key without an outage. Undefined when the merchant has no such active key still without a grace end (another
 * merchant's key reads as missing; a key already being replaced is not replaced twice).
 */
export async function replaceKey(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  keyId: string,
  cache?: KeyCache,
  graceMs = 0,
): Promise<{ id: string; key: string; kind: KeyKind; oldExpiresAt: number } | undefined> {
  const merchant = await getMerchant(db, merchantId);
  if (!merchant) return undefined;
  const now = clock.now();
  const done = await inTransaction(db, async (trx) => {
    const old = await trx
      .selectFrom('api_keys')
      .select(['kind', 'label'])
      .where('id', '=', keyId)
      .where('merchant_id', '=', merchantId)
      .where('active', '=', 1)
      .where('expires_at', 'is', null)
      .executeTakeFirst();
    if (!old) return undefined;
    const end = now + graceMs;
    await trx
      .updateTable('api_keys')
      .set(graceMs > 0 ? { expires_at: end } : { active: 0, deactivated_at: now, expires_at: now })
      .where('id', '=', keyId)
      .execute();
    const key = generateKey(old.kind, merchant.mode);
    return {
      id: await insertKey(trx, merchantId, old.kind, key, now, old.label),
      key,
      kind: old.kind,
      oldExpiresAt: end,
    };
  });
  cache?.invalidate();
  return done;
}

/** Deactivates one key of a merchant by id; false when the merchant has no such active key. */
export async function deactivateMerchantKey(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  keyId: string,
  cache?: KeyCache,
): Promise<boolean> {
  const res = await db
    .updateTable('api_keys')
    .set({ active: 0, deactivated_at: clock.now() })
    .where('id', '=', keyId)
    .where('merchant_id', '=', merchantId)
    .where('active', '=', 1)
    .executeTakeFirst();
  cache?.invalidate();
  return Number(res.numUpdatedRows) > 0;
}

/** Deactivates one key, named by its id (`key_...`) or by the whole key. Returns false when none matched. */
export async function deactivateKey(
  db: Kysely<Database>,
  clock: Clock,
  idOrKey: string,
  cache?: KeyCache,
): Promise<boolean> {
  const column = idOrKey.startsWith('key_') ? 'id' : 'key_hash';
  const value = column === 'id' ? idOrKey : hashKey(idOrKey);
  const res = await db
    .updateTable('api_keys')
    .set({ active: 0, deactivated_at: clock.now() })
    .where(column, '=', value)
    .where('active', '=', 1)
    .executeTakeFirst();
  cache?.invalidate();
  return Number(res.numUpdatedRows) > 0;
}

export async function updateMerchant(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  patch: {
    name?: string;
    webhookUrl?: string | null;
    allowedOrigins?: string[];
    webhookEnabled?: boolean;
    webhookSecret?: string;
    active?: boolean;
    /** The price currency when a request names none (core/money/fiat.ts). */
    defaultCurrency?: FiatCode;
  },
  cache?: KeyCache,
): Promise<void> {
  const res = await db
    .updateTable('merchants')
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.webhookUrl !== undefined ? { webhook_url: patch.webhookUrl } : {}),
      ...(patch.allowedOrigins !== undefined ? { allowed_origins: JSON.stringify(patch.allowedOrigins) } : {}),
      ...(patch.webhookEnabled !== undefined ? { webhook_enabled: patch.webhookEnabled ? 1 : 0 } : {}),
      ...(patch.webhookSecret !== undefined ? { webhook_secret: patch.webhookSecret } : {}),
      ...(patch.active !== undefined ? { active: patch.active ? 1 : 0 } : {}),
      ...(patch.defaultCurrency !== undefined ? { default_currency: patch.defaultCurrency } : {}),
      updated_at: clock.now(),
    })
    .where('id', '=', merchantId)
    .executeTakeFirst();
  cache?.invalidate();
  if (Number(res.numUpdatedRows) === 0) throw new AppError('NOT_FOUND', `merchant ${merchantId} not found`);
}

export function allowedOrigins(m: Merchant): string[] {
  try {
    const v: unknown = JSON.parse(m.allowed_origins);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
