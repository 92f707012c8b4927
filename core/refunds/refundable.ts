import { fromUnits } from '../money/decimal.js';
import type { Payment } from '../payments/payment.js';

/**
 * What a payment has received that can go back: its `actually_paid` once its deposits are settled. A payment still
 * waiting or confirming has received nothing yet that a refund may return (its deposits may still vanish).
 */
export function receivedUnits(p: Pick<Payment, 'status' | 'actually_paid_units'>): bigint {
  if (p.status === 'waiting' || p.status === 'confirming') return 0n;
  return BigInt(p.actually_paid_units);
}

/**
 * What a refund without an amount returns: the excess of an overpaid payment while some of it is left to return,
 * else all that is left (a second refund after the excess is the rest).
 */
export function defaultRefundUnits(
  p: Pick<Payment, 'status' | 'status_detail' | 'actually_paid_units' | 'pay_amount_units'>,
  held: bigint,
): bigint {
  const left = receivedUnits(p) - held;
  if (p.status_detail === 'overpaid') {
    const excess = receivedUnits(p) - BigInt(p.pay_amount_units) - held;
    if (excess > 0n) return excess < left ? excess : left;
  }
  return left;
}

/** "1500 (0.000015 BTC)": a limit in a 422, in exact base units and as the merchant reads it. */
export function unitsText(units: bigint, decimals: number, asset: string): string {
  return `${units} (${fromUnits(units < 0n ? 0n : units, decimals)} ${asset})`;
}
