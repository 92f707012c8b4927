import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.js';
import type { Clock } from '../clock.js';
import { type AppError, err, ok, type Result } from '../errors.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { writeRefundChange } from './change-refund.js';
import { CLAIM_TOKEN_RE, hashClaimToken } from './claim-link.js';
import { refundDestination } from './destination.js';
import type { Refund } from './refund.js';

/**
 * Where a claim link stands: `open` takes an address; `used` already gave one (or the merchant entered one);
 * `expired` is past its time; `closed` is a refund cancelled or already on its way. An unknown token reads `unknown`.
 */
export type ClaimState = 'open' | 'used' | 'expired' | 'closed';

export interface Claim {
  state: ClaimState;
  refund: Refund;
  merchantName: string;
  /** The locale the customer paid in (their mails'), if the checkout saw one. */
  locale: string | null;
}

function stateOf(r: Refund, now: number): ClaimState {
  if (r.status !== 'awaiting_address') return r.address !== null && r.status !== 'cancelled' ? 'used' : 'closed';
  if (r.address !== null) return 'used';
  if (r.claim_expires_at === null || r.claim_expires_at <= now) return 'expired';
  return 'open';
}

/** The refund a claim token names and where its link stands, or undefined (unknown and malformed tokens alike). */
export async function readClaim(db: Kysely<Database>, clock: Clock, token: string): Promise<Claim | undefined> {
  if (!CLAIM_TOKEN_RE.test(token)) return undefined;
  const row = await db
    .selectFrom('refunds as r')
    .innerJoin('merchants as m', 'm.id', 'r.merchant_id')
    .selectAll('r')
    .leftJoin('payment_mail_locales as l', 'l.payment_id', 'r.payment_id')
    .select(['m.name as merchant_name', 'l.locale as locale'])
    .where('r.claim_token_hash', '=', hashClaimToken(token))
    .executeTakeFirst();
  if (!row) return undefined;
  const { merchant_name, locale, ...refund } = row;
  return { state: stateOf(refund, clock.now()), refund, merchantName: merchant_name, locale };
}

/** Why a claim did not take the address: the link's state, or the address's 422. */
export type ClaimRefusal = { state: Exclude<ClaimState, 'open'> | 'unknown' } | { state: 'invalid'; error: AppError };

/**
 * The customer gives the refund's address through its claim link, once: checked for the asset's network (a bad one
 * writes nothing and leaves the link open), then recorded as the customer's and unconfirmed, with its
 * `refund.updated` event. The refund stays `awaiting_address`, with no send instructions, until the merchant confirms
 * it. Two submissions at once: the refund's sequence lets one win; the other reads the link as used (or unknown, when
 * the merchant replaced the link meanwhile).
 */
export async function claimRefundAddress(
  db: Kysely<Database>,
  clock: Clock,
  catalog: Catalog,
  explorer: (r: Refund) => string | null,
  token: string,
  text: string,
): Promise<Result<Claim, ClaimRefusal>> {
  const claim = await readClaim(db, clock, token);
  if (!claim) return err({ state: 'unknown' });
  if (claim.state !== 'open') return err({ state: claim.state });
  const asset = catalog.get(claim.refund.asset);
  if (!asset) return err({ state: 'closed' });
  const d = refundDestination(asset, text);
  if (!d.ok) return err({ state: 'invalid', error: d.error });
  const now = clock.now();
  try {
    const refund = await inTransaction(db, (trx) =>
      writeRefundChange(
        trx,
        claim.refund,
        { address: d.value, address_source: 'customer', address_confirmed_at: null },
        explorer(claim.refund),
        now,
      ),
    );
    return ok({ ...claim, state: 'used', refund });
  } catch (e) {
    // Another change won the refund's sequence: a second submission (the link now reads used), or the merchant
    // replacing the link or cancelling the refund (this token now names nothing, or a closed link).
    const again = await readClaim(db, clock, token);
    if (!again) return err({ state: 'unknown' });
    if (again.state !== 'open') return err({ state: again.state });
    throw e;
  }
}
