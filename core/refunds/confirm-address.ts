import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.js';
import type { Clock } from '../clock.js';
import { AppError, err, invalid, ok, type Result } from '../errors.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { writeRefundChange } from './change-refund.js';
import { type ClaimRequest, claimColumns, type IssuedClaim, issuedClaim, mailClaimLink } from './claim-link.js';
import { refundDestination } from './destination.js';
import type { Refund } from './refund.js';
import { findMerchantRefund } from './store.js';

const FIXED = 'The address was confirmed and can no longer change';

/**
 * The merchant confirms the address a refund goes to (issue 30 item 2): the one the customer gave through the claim
 * link, repeated as the merchant saw it (so a confirmation never covers an address it did not see), or, when none was
 * given, one the merchant enters. The refund becomes `ready` and its send instructions appear; from then on the
 * address never changes (another one is a 422 on `address`; the same one again changes nothing). Runs in the
 * caller's transaction when there is one (a dashboard change and its audit entry).
 */
export async function confirmRefundAddress(
  db: Kysely<Database>,
  clock: Clock,
  catalog: Catalog,
  explorer: (r: Refund) => string | null,
  merchantId: string,
  refundId: string,
  text: string,
): Promise<Result<{ refund: Refund; changed: boolean }>> {
  return inTransaction(db, async (trx) => {
    const r = await findMerchantRefund(trx, merchantId, refundId);
    if (!r) return err(new AppError('NOT_FOUND', 'Refund not found'));
    const asset = catalog.get(r.asset);
    if (!asset) return err(new AppError('BAD_REQUEST', `The refund's asset ${r.asset} is no longer in the catalog`));
    const d = refundDestination(asset, text);
    if (r.address_confirmed_at !== null) {
      if (d.ok && d.value === r.address) return ok({ refund: r, changed: false });
      return err(invalid('address', `${FIXED} (it is ${r.address})`));
    }
    if (r.status !== 'awaiting_address')
      return err(
        new AppError('BAD_REQUEST', `Only a refund awaiting its address can take one (this one is ${r.status})`),
      );
    if (!d.ok) return d;
    if (r.address !== null && d.value !== r.address)
      return err(
        invalid(
          'address',
          `Must be the address the customer gave (${r.address}); to ask for another, make a new claim link`,
        ),
      );
    const now = clock.now();
    const refund = await writeRefundChange(
      trx,
      r,
      {
        status: 'ready',
        address: d.value,
        address_source: r.address_source ?? 'merchant',
        address_confirmed_at: now,
      },
      explorer(r),
      now,
    );
    return ok({ refund, changed: true });
  });
}

/**
 * A new claim link for a refund still awaiting its confirmed address: the previous link stops working (only the new
 * token's hash is kept) and an address the customer gave but the merchant did not confirm is dropped, so the customer
 * can give another. The customer's mail is written in the same transaction.
 */
export async function newClaimLink(
  db: Kysely<Database>,
  clock: Clock,
  explorer: (r: Refund) => string | null,
  merchantId: string,
  refundId: string,
  c: ClaimRequest,
): Promise<Result<{ refund: Refund; claim: IssuedClaim }>> {
  return inTransaction(db, async (trx) => {
    const r = await findMerchantRefund(trx, merchantId, refundId);
    if (!r) return err(new AppError('NOT_FOUND', 'Refund not found'));
    if (r.address_confirmed_at !== null) return err(invalid('address', `${FIXED} (it is ${r.address})`));
    if (r.status !== 'awaiting_address')
      return err(
        new AppError('BAD_REQUEST', `Only a refund awaiting its address takes a claim link (this one is ${r.status})`),
      );
    const now = clock.now();
    const cols = claimColumns(c, now);
    const refund = await writeRefundChange(
      trx,
      r,
      { ...cols, address: null, address_source: null, address_confirmed_at: null },
      explorer(r),
      now,
    );
    const emailed = await mailClaimLink(trx, refund, c, cols.claim_expires_at, now);
    return ok({ refund, claim: issuedClaim(c, cols.claim_expires_at, emailed) });
  });
}
