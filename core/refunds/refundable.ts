import type { Kysely } from 'kysely';
import type { ChainView } from '../chains/types.js';
import { fromUnits } from '../money/decimal.js';
import { confirmations, depositsOf } from '../payments/deposits.js';
import type { Payment } from '../payments/payment.js';
import type { Database } from '../store/schema.js';

/**
 * What a payment has received that can go back: its deposits of the paid asset that are still on chain with the
 * confirmations its chain requires. `actually_paid` is not it: it also counts deposits seen but not yet confirmed (a
 * late deposit leaves an expired or finished payment's status as it was), which may still be replaced or vanish, and
 * a refund of them could send back money that never arrived.
 */
export async function receivedUnits(
  db: Kysely<Database>,
  chains: Pick<ChainView, 'chainKeyOf' | 'headOf' | 'requiredConfirmations'>,
  p: Pick<Payment, 'id' | 'mode' | 'network' | 'pay_currency' | 'status'>,
): Promise<bigint> {
  if (p.status === 'waiting' || p.status === 'confirming') return 0n;
  const key = chains.chainKeyOf(p);
  const required = chains.requiredConfirmations(key);
  const head = await chains.headOf(key, db);
  let units = 0n;
  for (const d of await depositsOf(db, p.id)) {
    if (d.removed === 0 && d.asset === p.pay_currency && confirmations(d.block_height, head) >= required)
      units += BigInt(d.amount_units);
  }
  return units;
}

/**
 * What a refund without an amount returns: the excess of an overpaid payment while some of it is left to return,
 * else all that is left (a second refund after the excess is the rest).
 */
export function defaultRefundUnits(
  p: Pick<Payment, 'status_detail' | 'pay_amount_units'>,
  received: bigint,
  held: bigint,
): bigint {
  const left = received - held;
  if (p.status_detail === 'overpaid') {
    const excess = received - BigInt(p.pay_amount_units) - held;
    if (excess > 0n) return excess < left ? excess : left;
  }
  return left;
}

/** "1500 (0.000015 BTC)": a limit in a 422, in exact base units and as the merchant reads it. */
export function unitsText(units: bigint, decimals: number, asset: string): string {
  return `${units} (${fromUnits(units < 0n ? 0n : units, decimals)} ${asset})`;
}
