import type { PaymentStatus, StatusDetail } from './status.js';
import { settledStatuses } from './status.js';

export interface DepositFacts {
  asset: string;
  amountUnits: bigint;
  confirmations: number;
  /** First seen after `valid_until`: recorded and counted in `actually_paid`, never toward the status. */
  late: boolean;
  removed: boolean;
}

export interface PaymentFacts {
  status: string;
  payCurrency: string;
  payAmountUnits: bigint;
  validUntil: number;
  confirmedAt: number | null;
  /** Merchant's accepted shortfall, in basis points of pay_amount (default 0). */
  underpaidToleranceBps: number;
  /**
   * The accepted shortfall in base units when larger than the basis points give (the merchant's USD amount converted
   * with the payment's own quote, core/payments/tolerance.ts). Absent: basis points only.
   */
  underpaidToleranceUnits?: bigint;
  /** The merchant accepted this payment as paid (dashboard or API): finished whatever was received. */
  accepted?: boolean;
}

export interface DerivedState {
  status: PaymentStatus;
  statusDetail: StatusDetail;
  actuallyPaidUnits: bigint;
  confirmedAt: number | null;
}

/**
 * The whole lifecycle as one pure function of a payment and its deposits (docs/architecture.md table). Every writer of a
 * payment's status goes through it, so the API, the watcher and the expiry sweep can never disagree.
 */
export function derivePaymentState(
  p: PaymentFacts,
  deposits: readonly DepositFacts[],
  now: number,
  requiredConfirmations: number,
): DerivedState {
  let seenOnTime = 0n;
  let confirmedOnTime = 0n;
  let lateUnits = 0n;
  for (const d of deposits) {
    // Deposits of another asset to the same address (a wrong token) are kept on record but pay nothing.
    if (d.removed || d.asset !== p.payCurrency) continue;
    if (d.late) {
      lateUnits += d.amountUnits;
      continue;
    }
    seenOnTime += d.amountUnits;
    if (d.confirmations >= requiredConfirmations) confirmedOnTime += d.amountUnits;
  }
  const actuallyPaidUnits = seenOnTime + lateUnits;
  const byBps = (p.payAmountUnits * BigInt(p.underpaidToleranceBps)) / 10_000n;
  const most =
    p.underpaidToleranceUnits !== undefined && p.underpaidToleranceUnits > byBps ? p.underpaidToleranceUnits : byBps;
  // Never more than half the amount due: a USD tolerance above a small price (or 100%) must not let dust finish it.
  const half = p.payAmountUnits / 2n;
  const tolerance = most > half ? half : most;
  const need = p.payAmountUnits - tolerance;
  const windowClosed = now > p.validUntil;

  let status: PaymentStatus;
  let confirmedAt = p.confirmedAt;
  // Expired and failed are the clock's verdicts, given on what had been seen. A deposit from before valid_until that
  // shows up only afterwards (its node lagged or was down across the deadline) proves the payment was made in time:
  // it re-opens the payment and counts in full, as if it had been seen at once.
  const reopened = (p.status === 'expired' || p.status === 'failed') && seenOnTime > 0n;
  if (p.accepted && p.status !== 'refunded') {
    // The merchant's word settles it: nothing a chain does afterwards (a reorg, a late deposit) un-finishes it.
    status = 'finished';
    confirmedAt ??= now;
  } else if (settledStatuses.has(p.status) && !reopened) {
    status = p.status as PaymentStatus;
  } else if (confirmedOnTime >= need && need > 0n) {
    status = 'finished';
    confirmedAt ??= now;
  } else if (seenOnTime > confirmedOnTime) {
    status = 'confirming';
  } else if (confirmedOnTime > 0n) {
    status = 'partially_paid';
  } else if (p.status === 'confirming' || p.status === 'partially_paid') {
    // The deposit vanished (reorg, replacement): back to waiting while the window is open, failed after.
    status = windowClosed ? 'failed' : 'waiting';
  } else {
    status = windowClosed ? 'expired' : 'waiting';
  }

  let statusDetail: StatusDetail = 'none';
  if (lateUnits > 0n) statusDetail = 'paid_late';
  else if (seenOnTime > p.payAmountUnits && (status === 'finished' || status === 'confirming'))
    statusDetail = 'overpaid';
  else if (status === 'partially_paid' || (status === 'finished' && confirmedOnTime < p.payAmountUnits))
    statusDetail = 'underpaid';
  if (status === 'finished' && confirmedOnTime > p.payAmountUnits && lateUnits === 0n) statusDetail = 'overpaid';

  return { status, statusDetail, actuallyPaidUnits, confirmedAt };
}
