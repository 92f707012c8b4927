import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/schema.js';
import { TokenBuckets } from '../token-buckets.js';

/*
 * The gap limit. A Bitcoin-family wallet restored from its seed (or scanning for new payments) derives receive
 * addresses 0/0, 0/1, ... and stops after `limit` unused ones in a row (BIP44: 20). Payments nobody paid leave unused
 * addresses, so past a run of `limit` of them the wallet would not see the next payment at all. The service cannot
 * stop customers from abandoning payments; it warns when a run gets that long, and past it hands out new addresses
 * only slowly, so a script creating payments it never pays cannot push the run far beyond the wallet's reach.
 */

export interface GapOptions {
  /** The gap limit the merchant's wallets are set to (README): the run of unused addresses worth a warning. */
  limit: number;
  /** New addresses per minute, per merchant and chain, once the run is past `limit`. 0 refuses them outright. */
  pastLimitPerMinute: number;
  logger: Logger;
  now: () => number;
}

/**
 * Whether any of the `limit` addresses below `index` of a merchant's chain has received a deposit (seen, not
 * removed): the wallet, having found that one, scans far enough to find `index`. Looks at `limit` index rows at most
 * (index payments_merchant_network_index), never at the merchant's whole history.
 */
export async function seenByWallet(
  db: Kysely<Database>,
  merchantId: string,
  network: string,
  index: number,
  limit: number,
): Promise<boolean> {
  if (index < limit) return true;
  const used = await db
    .selectFrom('payments as p')
    .select('p.id')
    .where('p.merchant_id', '=', merchantId)
    .where('p.network', '=', network)
    .where('p.mode', '=', 'live')
    .where('p.address_index', '>=', index - limit)
    .where('p.address_index', '<', index)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('deposits as d').select('d.id').whereRef('d.payment_id', '=', 'p.id').where('d.removed', '=', 0),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return used !== undefined;
}

/**
 * Index of the highest address of a merchant's chain that received a deposit, or -1: what `xpub show` reports as
 * the start of the current unused run. A full look at the merchant's payments on that chain: for the admin CLI.
 */
export async function lastUsedIndex(db: Kysely<Database>, merchantId: string, network: string): Promise<number> {
  const row = await db
    .selectFrom('payments as p')
    .select((eb) => eb.fn.max('p.address_index').as('last'))
    .where('p.merchant_id', '=', merchantId)
    .where('p.network', '=', network)
    .where('p.mode', '=', 'live')
    .where((eb) =>
      eb.exists(
        eb.selectFrom('deposits as d').select('d.id').whereRef('d.payment_id', '=', 'p.id').where('d.removed', '=', 0),
      ),
    )
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? -1 : Number(row.last);
}

/**
 * Checked when a payment takes address `index`: past the gap limit, logs a warning (at most once a minute per
 * merchant and chain) and spends one of the slow allowance of addresses, or refuses with 429 and `Retry-After`
 * (the payment's transaction rolls back, so the index is not used up).
 */
export class GapGuard {
  private readonly allowance: TokenBuckets;
  private readonly warnedAt = new Map<string, number>();

  constructor(private readonly o: GapOptions) {
    this.allowance = new TokenBuckets(o.now);
  }

  async check(db: Kysely<Database>, merchantId: string, network: string, index: number): Promise<void> {
    if (await seenByWallet(db, merchantId, network, index, this.o.limit)) return;
    const t = this.o.now();
    const key = `${merchantId}:${network}`;
    if (t - (this.warnedAt.get(key) ?? -Infinity) >= 60_000) {
      this.warnedAt.set(key, t);
      this.o.logger.warn('address gap limit exceeded: the wallet may not see new payments', {
        merchant_id: merchantId,
        network,
        index,
        gap_limit: this.o.limit,
      });
    }
    const wait = this.allowance.take(key, this.o.pastLimitPerMinute, 60_000);
    if (wait > 0) {
      throw new AppError(
        'RATE_LIMITED',
        `Too many unpaid ${network.toUpperCase()} payments in a row: new addresses are past the wallet's gap limit of ${this.o.limit}; try again later`,
        { retryAfter: wait },
      );
    }
  }
}
