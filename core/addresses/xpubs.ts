import type { Kysely } from 'kysely';
import type { Asset } from '../catalog/types.js';
import { accountKeys, type KeyNet } from '../chains/families.js';
import type { AccountKeyScheme, ParsedKey } from '../chains/family.js';
import type { Clock } from '../clock.js';
import { AppError, err, ok, type Result } from '../errors.js';
import { notLiveMerchant } from '../merchants/merchants.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';

/**
 * What one extended public key serves: `evm` (every EVM network: an address is the same on all of them) or one
 * Bitcoin-family chain (each has its own account path and its own addresses). Each family's descriptor brings its
 * kinds (core/chains/families.ts `accountKeys`).
 */
export { keyChains } from '../chains/families.js';
export type KeyChain = string;
export type { ParsedKey };

/** The kind of key of a chain; looked up at each call, the descriptor list being built after this module. */
function schemeOf(chain: KeyChain): AccountKeyScheme {
  const scheme = accountKeys.find((k) => k.chain === chain);
  if (!scheme) throw new Error(`no account key for chain ${chain}`);
  return scheme;
}

/** @example isKeyChain('ltc') // true */
export function isKeyChain(v: string): v is KeyChain {
  return accountKeys.some((k) => k.chain === v);
}

/** The key a live asset's addresses come from, or null for families without one (tron, solana, xrp, monero). */
export function keyChainOf(asset: Pick<Asset, 'family' | 'network'>): KeyChain | null {
  return accountKeys.find((k) => k.serves(asset))?.chain ?? null;
}

/** Whether a chain's keys are read for its node's network and their unpaid runs gap-limited (Bitcoin-family). */
export function isPerNetwork(chain: KeyChain): boolean {
  return schemeOf(chain).perNetwork;
}

/** The account path a wallet exports the key from (shown to merchants; the server derives only 0/N below it). */
export function keyPath(chain: KeyChain, net: KeyNet): string {
  return schemeOf(chain).path(net);
}

/**
 * Address of receive child 0/`index` of a stored key. `net` is the configured node's network (ignored for EVM).
 *
 * @example keyAddressAt('evm', 'xpub6C...', 'main', 0) // '0xf39F...'
 */
export function keyAddressAt(chain: KeyChain, xpub: string, net: KeyNet, index: number): string {
  return schemeOf(chain).addressAt(xpub, net, index);
}

export interface StoredKey {
  xpub: string;
  /** Index of the next payment's address. */
  nextIndex: number;
  updatedAt: number;
}

export async function getXpub(db: Kysely<Database>, merchantId: string, chain: KeyChain): Promise<StoredKey | null> {
  const row = await db
    .selectFrom('merchant_xpubs')
    .select(['xpub', 'next_index', 'updated_at'])
    .where('merchant_id', '=', merchantId)
    .where('chain', '=', chain)
    .executeTakeFirst();
  return row ? { xpub: row.xpub, nextIndex: Number(row.next_index), updatedAt: Number(row.updated_at) } : null;
}

/**
 * Takes the next address index of a merchant's key for a chain, in the caller's transaction: one statement, so two
 * concurrent payments never share an index, and an index whose payment rolled back is skipped, never reused.
 * Null when the merchant has no key for the chain.
 */
export async function takeAddressIndex(
  trx: Kysely<Database>,
  merchantId: string,
  chain: KeyChain,
): Promise<{ xpub: string; index: number } | null> {
  const row = await trx
    .updateTable('merchant_xpubs')
    .set((eb) => ({ next_index: eb('next_index', '+', 1) }))
    .where('merchant_id', '=', merchantId)
    .where('chain', '=', chain)
    .returning(['xpub', 'next_index'])
    .executeTakeFirst();
  return row ? { xpub: row.xpub, index: Number(row.next_index) - 1 } : null;
}

/**
 * Parses a pasted key for a chain without storing it: private keys refused (never echoed), Bitcoin-family keys
 * checked against the chain's network, script type and account depth (its family's `accountKeys`).
 */
export function parseKey(chain: KeyChain, net: KeyNet, text: string): Result<ParsedKey> {
  return schemeOf(chain).parse(text, net);
}

/**
 * Registers (or replaces) a live merchant's key for a chain. Open payments keep their addresses (the watcher
 * matches deposits by address, not by key) and the address counter carries on, so a key set back again never hands
 * out an address twice. Refused: test merchants, private keys, and a key another merchant already uses on that chain
 * (both would be paid at the same addresses).
 */
export async function setXpub(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  chain: KeyChain,
  text: string,
  net: KeyNet = 'main',
): Promise<Result<ParsedKey>> {
  const parsed = parseKey(chain, net, text);
  if (!parsed.ok) return parsed;
  const xpub = parsed.value.xpub;
  return inTransaction(db, async (trx) => {
    const refused = await notLiveMerchant(trx, merchantId, 'use an extended public key');
    if (refused) return err(refused);
    const other = await trx
      .selectFrom('merchant_xpubs')
      .select('merchant_id')
      .where('chain', '=', chain)
      .where('xpub', '=', xpub)
      .where('merchant_id', '!=', merchantId)
      .executeTakeFirst();
    if (other)
      return err(new AppError('CONFLICT', 'This extended public key is already registered by another merchant'));
    const now = clock.now();
    await trx
      .insertInto('merchant_xpubs')
      .values({ merchant_id: merchantId, chain, xpub, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['merchant_id', 'chain']).doUpdateSet({ xpub, updated_at: now }))
      .execute();
    return ok(parsed.value);
  });
}
