import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.js';
import type { Clock } from '../clock.js';
import { AppError, err, invalid, ok, type Result } from '../errors.js';
import { newId } from '../ids.js';
import { paymentAsset } from '../payments/payment.js';
import { findMerchantPayment } from '../payments/store.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { type ClaimRequest, claimColumns, type IssuedClaim, issuedClaim, mailClaimLink } from './claim-link.js';
import { refundDestination } from './destination.js';
import { insertRefundEvent } from './events.js';
import type { Refund } from './refund.js';
import { defaultRefundUnits, receivedUnits, unitsText } from './refundable.js';
import { compareAndSetHeld, heldUnits, insertRefund } from './store.js';

export interface NewRefund {
  merchantId: string;
  paymentId: string;
  /** Base units of the paid asset; default: the excess of an overpaid payment, else all that is left. */
  amountUnits?: bigint | undefined;
  /** The customer's address as the merchant entered it: the refund is `ready` at once. */
  address?: string | undefined;
  reason?: string | undefined;
  /** Without an address: ask the customer for it through a claim link (core/refunds/claim-link.ts). */
  claim?: ClaimRequest | undefined;
}

/** A new refund, with the claim link made with it (shown to the merchant this once), if one was asked. */
export type CreatedRefund = Refund & { claim?: IssuedClaim };

/** Thrown to leave the transaction when the input is refused: a refused refund writes nothing. */
class Refused extends Error {
  constructor(readonly result: Result<never>) {
    super('refused');
  }
}

/** Attempts before giving up on a payment whose total keeps moving (each failed one means another refund landed). */
const MAX_ATTEMPTS = 64;

/**
 * Creates a refund of a payment: validates the amount against what was received less what other refunds hold, and
 * the address against the paid asset's network, then moves the payment's held total with one conditional update
 * and writes the refund with its `refund.updated` event, in one transaction (the caller's when there is one: a
 * dashboard change and its audit entry). Refunds created at the same moment never add up to more than was
 * received: a loser of the compare-and-set re-reads the committed total and re-checks, in its own transaction
 * (PostgreSQL's read committed shows it the winner's total). Bad input is a 422 naming the field and the limit in
 * exact units, and writes nothing.
 *
 * @example
 * await createRefund(db, clock, catalog, chains, () => null, { merchantId, paymentId, amountUnits: 1500n }) // ok(refund)
 */
export async function createRefund(
  db: Kysely<Database>,
  clock: Clock,
  catalog: Catalog,
  chains: RefundChains,
  explorer: (r: Refund) => string | null,
  n: NewRefund,
): Promise<Result<CreatedRefund>> {
  try {
    return await inTransaction(db, async (trx) => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const r = await attemptCreate(trx, clock, catalog, chains, n);
        if (r === 'moved') continue;
        if (!r.ok) throw new Refused(r);
        const refund = r.value;
        await insertRefundEvent(trx, refund, explorer(refund), refund.created_at);
        if (!n.claim || refund.claim_expires_at === null) return ok(refund);
        const emailed = await mailClaimLink(trx, refund, n.claim, refund.claim_expires_at, refund.created_at);
        return ok({ ...refund, claim: issuedClaim(n.claim, refund.claim_expires_at, emailed) });
      }
      throw new Refused(err(new AppError('CONFLICT', 'Too many refunds of this payment at once; try again')));
    });
  } catch (e) {
    if (e instanceof Refused) return e.result;
    throw e;
  }
}

/** What a refund reads of the chains: the confirmations a payment's deposits have and need. */
type RefundChains = Parameters<typeof receivedUnits>[1];

async function attemptCreate(
  trx: Kysely<Database>,
  clock: Clock,
  catalog: Catalog,
  chains: RefundChains,
  n: NewRefund,
): Promise<Result<Refund> | 'moved'> {
  const p = await findMerchantPayment(trx, n.merchantId, n.paymentId);
  if (!p) return err(new AppError('NOT_FOUND', 'Payment not found'));
  const asset = paymentAsset(catalog, p);
  const now = clock.now();
  const received = await receivedUnits(trx, chains, p);
  if (received === 0n) {
    const why =
      p.status === 'confirming' || p.actually_paid_units !== '0'
        ? 'its deposits are not confirmed yet'
        : `nothing was received (payment_status ${p.status})`;
    return err(invalid('payment_id', `This payment cannot be refunded: ${why}; at most 0 can be refunded`));
  }
  const held = await heldUnits(trx, p.id, now);
  const left = received - held;
  const units = n.amountUnits ?? defaultRefundUnits(p, received, held);
  if (units <= 0n || units > left) {
    const limit = `at most ${unitsText(left, p.decimals, asset.code)} of ${unitsText(received, p.decimals, asset.code)} received can still be refunded`;
    return err(
      invalid('amount_units', units <= 0n && left > 0n ? `Must be at least 1; ${limit}` : `Too much: ${limit}`),
    );
  }
  let address: string | null = null;
  if (n.claim && n.address !== undefined)
    return err(invalid('claim_link', 'A refund with an address needs no claim link: give one or the other'));
  if (n.address !== undefined) {
    const d = refundDestination(asset, n.address);
    if (!d.ok) return d;
    address = d.value;
  }
  if (!(await compareAndSetHeld(trx, p.id, held, held + units, now))) return 'moved';
  const refund: Refund = {
    id: newId('rfd'),
    payment_id: p.id,
    merchant_id: p.merchant_id,
    mode: p.mode,
    network: p.network,
    asset: asset.code,
    decimals: p.decimals,
    amount_units: units.toString(),
    status: address ? 'ready' : 'awaiting_address',
    sequence: 1,
    address,
    address_source: address ? 'merchant' : null,
    // The merchant typed it: entering it is confirming it.
    address_confirmed_at: address ? now : null,
    ...(n.claim ? claimColumns(n.claim, now) : { claim_token_hash: null, claim_expires_at: null }),
    reason: n.reason ?? null,
    txid: null,
    created_at: now,
    updated_at: now,
    sent_at: null,
    confirmed_at: null,
    cancelled_at: null,
  };
  await insertRefund(trx, refund);
  return ok(refund);
}
