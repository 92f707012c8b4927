import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { AppError, err, ok, type Result } from '../../errors.js';
import { notLiveMerchant } from '../../merchants/merchants.js';
import type { Database } from '../../store/schema.js';
import { inTransaction } from '../../store/transaction.js';
import type { ViewKeySettings } from '../family.js';
import { type MoneroViewKey, parseViewKey, subaddressAt, viewKeyHex } from './monero.js';

/** `merchant_xpubs.chain` of a merchant's Monero keys (migration 0015). */
export const XMR_KEY_CHAIN = 'xmr';
/**
 * Subaddresses a wallet restored from keys looks ahead in account 0 (monero-wallet-rpc / wallet2 0.18 default: 200):
 * past a run this long of unpaid ones, the merchant's own wallet stops seeing new payments until told to look further.
 */
export const MONERO_SUBADDRESS_LOOKAHEAD = 200;

/** Parsed keys by stored row: the chain source reads every merchant's keys at each block and pool poll. */
const parsedRows = new Map<string, MoneroViewKey>();

function fromRow(address: string, viewKey: string): MoneroViewKey {
  const cacheKey = `${address}:${viewKey}`;
  const cached = parsedRows.get(cacheKey);
  if (cached) return cached;
  const parsed = parseViewKey(address, viewKey);
  // Both were checked together when set; a row that no longer parses was edited by hand.
  if (!parsed.ok) throw new Error(`stored Monero keys of ${address.slice(0, 8)}... do not match`);
  // Bounded by the merchants' keys ever set in this process (a replaced key leaves one stale entry).
  parsedRows.set(cacheKey, parsed.value);
  return parsed.value;
}

/**
 * Registers (or replaces) a live merchant's Monero primary address and private view key, checked together
 * (core/chains/monero/monero.ts). The subaddress counter starts at 1 (index 0 is the primary address, which payments never
 * use) and carries on when the keys are set again, so no subaddress is handed out twice. Returns subaddress 1, for
 * the merchant to find in their wallet.
 */
export async function setViewKey(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  addressText: string,
  viewKeyText: string,
): Promise<Result<{ address: string; firstSubaddress: string; nextIndex: number }>> {
  const parsed = parseViewKey(addressText, viewKeyText);
  if (!parsed.ok) return parsed;
  const key = parsed.value;
  const viewKey = viewKeyHex(key.viewKey);
  // The caller's transaction when there is one: the dashboard writes its audit entry in the same one.
  return inTransaction(db, async (trx) => {
    const refused = await notLiveMerchant(trx, merchantId, 'use a Monero view key');
    if (refused) return err(refused);
    const other = await trx
      .selectFrom('merchant_xpubs')
      .select('merchant_id')
      .where('chain', '=', XMR_KEY_CHAIN)
      .where('xpub', '=', key.address)
      .where('merchant_id', '!=', merchantId)
      .executeTakeFirst();
    if (other) return err(new AppError('CONFLICT', 'This Monero address is already registered by another merchant'));
    const now = clock.now();
    const row = await trx
      .insertInto('merchant_xpubs')
      .values({
        merchant_id: merchantId,
        chain: XMR_KEY_CHAIN,
        xpub: key.address,
        view_key: viewKey,
        next_index: 1,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['merchant_id', 'chain']).doUpdateSet({ xpub: key.address, view_key: viewKey, updated_at: now }),
      )
      .returning('next_index')
      .executeTakeFirstOrThrow();
    return ok({ address: key.address, firstSubaddress: subaddressAt(key, 1), nextIndex: Number(row.next_index) });
  });
}

/** A merchant's Monero keys and next subaddress index, or null. */
export async function getMoneroKey(
  db: Kysely<Database>,
  merchantId: string,
): Promise<{ key: MoneroViewKey; nextIndex: number; updatedAt: number } | null> {
  const row = await db
    .selectFrom('merchant_xpubs')
    .select(['xpub', 'view_key', 'next_index', 'updated_at'])
    .where('merchant_id', '=', merchantId)
    .where('chain', '=', XMR_KEY_CHAIN)
    .executeTakeFirst();
  if (!row?.view_key) return null;
  return { key: fromRow(row.xpub, row.view_key), nextIndex: Number(row.next_index), updatedAt: Number(row.updated_at) };
}

/** Every merchant's Monero keys: what the chain source scans each transaction with. */
export async function allMoneroKeys(db: Kysely<Database>): Promise<MoneroViewKey[]> {
  const rows = await db
    .selectFrom('merchant_xpubs')
    .select(['xpub', 'view_key'])
    .where('chain', '=', XMR_KEY_CHAIN)
    .execute();
  return rows.flatMap((r) => (r.view_key ? [fromRow(r.xpub, r.view_key)] : []));
}

/**
 * Takes the next subaddress index of a merchant's Monero keys in the caller's transaction (one statement, like
 * `takeAddressIndex`): persisted with the payment, so a crash can never hand one subaddress to two payments.
 */
export async function takeSubaddress(
  trx: Kysely<Database>,
  merchantId: string,
): Promise<{ address: string; index: number } | null> {
  const row = await trx
    .updateTable('merchant_xpubs')
    .set((eb) => ({ next_index: eb('next_index', '+', 1) }))
    .where('merchant_id', '=', merchantId)
    .where('chain', '=', XMR_KEY_CHAIN)
    .returning(['xpub', 'view_key', 'next_index'])
    .executeTakeFirst();
  if (!row?.view_key) return null;
  const index = Number(row.next_index) - 1;
  return { address: subaddressAt(fromRow(row.xpub, row.view_key), index), index };
}

/** Monero's key settings as the dashboard and the admin CLI read and set them (core/chains/family.ts). */
export const moneroViewKeys: ViewKeySettings = {
  chain: XMR_KEY_CHAIN,
  lookahead: MONERO_SUBADDRESS_LOOKAHEAD,
  async read(db, merchantId) {
    const stored = await getMoneroKey(db, merchantId);
    if (!stored) return null;
    const { key, nextIndex, updatedAt } = stored;
    return { address: key.address, nextIndex, updatedAt, addressAt: (index) => subaddressAt(key, index) };
  },
  set: setViewKey,
};
