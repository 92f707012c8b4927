import type { Kysely } from 'kysely';
import type { Asset } from '../catalog/types.js';
import { parseUtxoXpub, utxoAddressAt } from '../chains/bitcoin/utxo.js';
import {
  accountPath,
  type ExtendedKeyPrefix,
  type UtxoChain,
  type UtxoNet,
  utxoChains,
} from '../chains/bitcoin/utxo-params.js';
import { evmAddressAt, parseXpub } from '../chains/evm/hd.js';
import type { Clock } from '../clock.js';
import { AppError, err, ok, type Result } from '../errors.js';
import { notLiveMerchant } from '../merchants/merchants.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';

/**
 * What one extended public key serves: `evm` (every EVM network: an address is the same on all of them) or one
 * Bitcoin-family chain (each has its own account path and its own addresses).
 */
export const keyChains = ['evm', ...utxoChains] as const;
export type KeyChain = (typeof keyChains)[number];

/** @example isKeyChain('ltc') // true */
export function isKeyChain(v: string): v is KeyChain {
  return (keyChains as readonly string[]).includes(v);
}

/** The key a live asset's addresses come from, or null for families without one (tron, solana, xrp). */
export function keyChainOf(asset: Pick<Asset, 'family' | 'network'>): KeyChain | null {
  if (asset.family === 'evm') return 'evm';
  if (asset.family === 'utxo' && isKeyChain(asset.network)) return asset.network;
  return null;
}

/** The account path a wallet exports the key from (shown to merchants; the server derives only 0/N below it). */
export function keyPath(chain: KeyChain, net: UtxoNet): string {
  return chain === 'evm' ? "m/44'/60'/0'" : accountPath(chain, net);
}

/**
 * Address of receive child 0/`index` of a stored key. `net` is the configured node's network (ignored for EVM).
 *
 * @example keyAddressAt('evm', 'xpub6C...', 'main', 0) // '0xf39F...'
 */
export function keyAddressAt(chain: KeyChain, xpub: string, net: UtxoNet, index: number): string {
  return chain === 'evm' ? evmAddressAt(xpub, index) : utxoAddressAt(xpub, chain as UtxoChain, net, index);
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

export interface ParsedKey {
  /** The form stored: xpub (EVM, Bitcoin-family mainnet) or tpub (test networks), whatever form was pasted. */
  xpub: string;
  depth: number;
  pastedAs: ExtendedKeyPrefix | null;
}

/**
 * Parses a pasted key for a chain without storing it: private keys refused (never echoed), Bitcoin-family keys
 * checked against the chain's network, script type and account depth (core/chains/bitcoin/utxo.ts).
 */
export function parseKey(chain: KeyChain, net: UtxoNet, text: string): Result<ParsedKey> {
  if (chain === 'evm') {
    const parsed = parseXpub(text);
    if (!parsed.ok) return parsed;
    return ok({ xpub: parsed.value.publicExtendedKey, depth: parsed.value.depth, pastedAs: null });
  }
  const parsed = parseUtxoXpub(text, chain, net);
  if (!parsed.ok) return parsed;
  return ok({ xpub: parsed.value.xpub, depth: parsed.value.key.depth, pastedAs: parsed.value.pastedAs });
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
  net: UtxoNet = 'main',
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
