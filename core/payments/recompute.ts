import type { Kysely } from 'kysely';
import type { ChainView } from '../chains/types.js';
import type { Database } from '../store/schema.js';
import { applyShares, sharesOf } from './balance-totals.js';
import { confirmations, depositsOf } from './deposits.js';
import { insertPaymentEvent } from './events.js';
import { exceptionOf, usdRateOf } from './exceptions-store.js';
import { derivePaymentState } from './lifecycle.js';
import type { Payment } from './payment.js';
import { lockPayment, type PaymentState, writePaymentState } from './store.js';
import { toleranceUnits } from './tolerance.js';

/**
 * Re-derives one payment from its deposits in the caller's transaction and writes the change (bumping `sequence`,
 * with its outbox event). Returns the payment as it now is and whether its state changed; undefined when it does
 * not exist.
 */
export async function recomputePayment(
  trx: Kysely<Database>,
  paymentId: string,
  now: number,
  chains: ChainView,
): Promise<{ payment: Payment; changed: boolean } | undefined> {
  const p = await lockPayment(trx, paymentId);
  if (!p) return undefined;
  const [merchant, deposits] = await Promise.all([
    trx
      .selectFrom('merchants')
      .select(['underpaid_tolerance_bps', 'underpaid_tolerance_usd'])
      .where('id', '=', p.merchant_id)
      .executeTakeFirst(),
    depositsOf(trx, paymentId),
  ]);
  const exception = await exceptionOf(trx, paymentId);
  const key = chains.chainKeyOf(p);
  const head = await chains.headOf(key, trx);
  const next = derivePaymentState(
    {
      status: p.status,
      payCurrency: p.pay_currency,
      payAmountUnits: BigInt(p.pay_amount_units),
      validUntil: p.valid_until,
      confirmedAt: p.confirmed_at,
      underpaidToleranceBps: merchant?.underpaid_tolerance_bps ?? 0,
      underpaidToleranceUnits: toleranceUnits(
        BigInt(p.pay_amount_units),
        p.decimals,
        merchant?.underpaid_tolerance_bps ?? 0,
        merchant?.underpaid_tolerance_usd ?? '0',
        usdRateOf(p, exception),
      ),
      accepted: exception.acceptedAt !== null,
    },
    deposits.map((d) => ({
      asset: d.asset,
      amountUnits: BigInt(d.amount_units),
      confirmations: confirmations(d.block_height, head),
      late: d.late === 1,
      removed: d.removed === 1,
    })),
    now,
    chains.requiredConfirmations(key),
  );
  const paid = next.actuallyPaidUnits.toString();
  // The balance totals move in this same transaction (core/payments/balance-totals.ts), changed state or not: a
  // deposit crossing its confirmation count changes the balance without changing the payment.
  await applyShares(
    trx,
    { id: p.id, merchant_id: p.merchant_id, status: next.status, status_detail: next.statusDetail },
    sharesOf(deposits, head, chains.requiredConfirmations(key)),
    now,
  );
  if (
    next.status === p.status &&
    next.statusDetail === p.status_detail &&
    paid === p.actually_paid_units &&
    next.confirmedAt === p.confirmed_at
  ) {
    return { payment: p, changed: false };
  }
  const payment = await writeChange(
    trx,
    p,
    {
      status: next.status,
      status_detail: next.statusDetail,
      actually_paid_units: paid,
      confirmed_at: next.confirmedAt,
    },
    now,
  );
  return { payment, changed: true };
}

/** The one place a payment's visible state changes: bump sequence, write the row and its event together. */
export async function writeChange(
  trx: Kysely<Database>,
  p: Payment,
  patch: Pick<Payment, 'status' | 'status_detail' | 'actually_paid_units' | 'confirmed_at'>,
  now: number,
): Promise<Payment> {
  const state: PaymentState = { ...patch, sequence: p.sequence + 1, updated_at: now };
  if (!(await writePaymentState(trx, p.id, p.sequence, state))) throw new Error(`payment ${p.id} changed concurrently`);
  const updated: Payment = { ...p, ...state };
  await insertPaymentEvent(trx, updated, now);
  return updated;
}
