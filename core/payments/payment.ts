import type { Selectable } from 'kysely';
import { fromUnits } from '../money/decimal.js';
import type { PaymentTable } from '../store/schema.js';

export type Payment = Selectable<PaymentTable>;

/** Exact decimal texts of a payment's amounts, the only way amounts leave the core. */
export function payAmountText(p: Payment): string {
  return fromUnits(BigInt(p.pay_amount_units), p.decimals);
}

export function actuallyPaidText(p: Payment): string {
  return fromUnits(BigInt(p.actually_paid_units), p.decimals);
}
