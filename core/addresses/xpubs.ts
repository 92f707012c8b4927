import type { Kysely } from 'kysely';
import type { ChainFamily } from '../catalog/types.js';
import type { Clock } from '../clock.js';
import { AppError, err, ok, type Result } from '../errors.js';
import type { Database } from '../store/schema.js';
import { parseXpub } from './hd.js';

/** Chain families whose live addresses come from an xpub. */
export const xpubFamilies: readonly ChainFamily[] = ['evm'];

export async function getXpub(db: Kysely<Database>, merchantId: string, family: ChainFamily): Promise<string | null> {
  const row = await db
    .selectFrom('merchant_xpubs')
    .select('xpub')
    .where('merchant_id', '=', merchantId)
    .where('family', '=', family)
    .executeTakeFirst();
  return row?.xpub ?? null;
}

/**
 * Registers (or replaces) a live merchant's xpub for a family. Open payments keep their addresses: the watcher
 * matches deposits by address, not by key. Refused: test merchants, private keys, and an xpub another merchant
 * already uses (both would be paid at the same addresses).
 */
export async function setXpub(
  db: Kysely<Database>,
  clock: Clock,
  merchantId: string,
  family: ChainFamily,
  text: string,
): Promise<Result<{ xpub: string; depth: number }>> {
  if (!xpubFamilies.includes(family))
    return err(new AppError('BAD_REQUEST', `Extended public keys are not supported for chain family ${family}`));
  const parsed = parseXpub(text);
  if (!parsed.ok) return parsed;
  const xpub = parsed.value.publicExtendedKey;
  return db.transaction().execute(async (trx) => {
    const merchant = await trx
      .selectFrom('merchants')
      .select(['id', 'mode'])
      .where('id', '=', merchantId)
      .executeTakeFirst();
    if (!merchant) return err(new AppError('NOT_FOUND', `Merchant ${merchantId} not found`));
    if (merchant.mode !== 'live')
      return err(
        new AppError(
          'BAD_REQUEST',
          'Only live merchants use an extended public key; test mode pays to sandbox addresses',
        ),
      );
    const other = await trx
      .selectFrom('merchant_xpubs')
      .select('merchant_id')
      .where('family', '=', family)
      .where('xpub', '=', xpub)
      .where('merchant_id', '!=', merchantId)
      .executeTakeFirst();
    if (other)
      return err(new AppError('CONFLICT', 'This extended public key is already registered by another merchant'));
    const now = clock.now();
    await trx
      .insertInto('merchant_xpubs')
      .values({ merchant_id: merchantId, family, xpub, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['merchant_id', 'family']).doUpdateSet({ xpub, updated_at: now }))
      .execute();
    return ok({ xpub, depth: parsed.value.depth });
  });
}
