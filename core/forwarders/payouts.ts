import type { Kysely } from 'kysely';
import { type Address, getAddress, isAddress, zeroAddress } from 'viem';
import type { Clock } from '../clock.js';
import { err, invalid, ok, type Result } from '../errors.js';
import { notLiveMerchant } from '../merchants/merchants.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';

/**
 * A live merchant's payout address: where the forwarders of its EVM payments send every deposit. One address for
 * every EVM network (`chain` = `evm`), like the EVM xpub. A payment's forwarder commits to the payout of the moment
 * it was created, so changing it moves only later payments.
 */

export const PAYOUT_CHAINS = ['evm'] as const;
export type PayoutChain = (typeof PAYOUT_CHAINS)[number];

/**
 * Reads a pasted payout address: 0x and 20 bytes; a mixed-case address must carry a valid EIP-55 checksum (a typo
 * in one letter is caught); the zero address is refused (funds sent there are burnt).
 *
 * @example parsePayout('0x70997970C51812dc3A010C7d01b50e0d17dc79C8') // { ok: true, value: '0x7099...79C8' }
 */
export function parsePayout(text: string): Result<Address> {
  const t = text.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(t)) return err(invalid('address', 'Must be a 0x-prefixed 20-byte hex address'));
  const mixed = t.slice(2) !== t.slice(2).toLowerCase() && t.slice(2) !== t.slice(2).toUpperCase();
  if (mixed && !isAddress(t, { strict: true }))
    return err(invalid('address', 'The EIP-55 checksum (the capital letters) does not match: check the address'));
  const address = getAddress(t);
  if (address === zeroAddress) return err(invalid('address', 'The zero address burns whatever is sent to it'));
  return ok(address);
}

export async function getPayout(db: Kysely<Database>, merchantId: string, chain: PayoutChain): Promise<Address | null> {
  const row = await db
    .selectFrom('merchant_payouts')
    .select('address')
    .where('merchant_id', '=', merchantId)
    .where('chain', '=', chain)
    .executeTakeFirst();
  return row ? (row.address as Address) : null;
}

/** Sets (or replaces) a live merchant's payout address; test merchants are paid on the sandbox chain. */
export async function setPayout(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  chain: PayoutChain,
  text: string,
): Promise<Result<Address>> {
  const parsed = parsePayout(text);
  if (!parsed.ok) return parsed;
  const address = parsed.value;
  return inTransaction(db, async (trx) => {
    const refused = await notLiveMerchant(trx, merchantId, 'have a payout address');
    if (refused) return err(refused);
    const now = clock.now();
    await trx
      .insertInto('merchant_payouts')
      .values({ merchant_id: merchantId, chain, address, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['merchant_id', 'chain']).doUpdateSet({ address, updated_at: now }))
      .execute();
    return ok(address);
  });
}
