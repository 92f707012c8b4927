import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/*
 * What was actually refunded, for the CSV export and the overview (issue 30 item 5): refunds seen on chain (`sent`)
 * or confirmed; one being prepared (`awaiting_address`, `ready`) has returned nothing yet. Base units summed with
 * bigint in JS, since wei exceed what SQL integers hold on both stores.
 */

const MOVED = ['sent', 'confirmed'] as const;

/** Per payment of `paymentIds`, the base units its refunds returned (payments with none are absent). */
export async function refundedByPayment(
  db: Kysely<Database>,
  paymentIds: readonly string[],
): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  for (let i = 0; i < paymentIds.length; i += 500) {
    const rows = await db
      .selectFrom('refunds')
      .select(['payment_id', 'amount_units'])
      .where('payment_id', 'in', paymentIds.slice(i, i + 500))
      .where('status', 'in', MOVED)
      .execute();
    for (const r of rows) out.set(r.payment_id, (out.get(r.payment_id) ?? 0n) + BigInt(r.amount_units));
  }
  return out;
}

/** Per asset, the base units a merchant's refunds returned since `from` (by when they were seen on chain). */
export async function refundedByAsset(
  db: Kysely<Database>,
  merchantId: string,
  from: number,
): Promise<Map<string, bigint>> {
  const rows = await db
    .selectFrom('refunds')
    .select(['asset', 'amount_units'])
    .where('merchant_id', '=', merchantId)
    .where('status', 'in', MOVED)
    .where('sent_at', '>=', from)
    .execute();
  const out = new Map<string, bigint>();
  for (const r of rows) out.set(r.asset, (out.get(r.asset) ?? 0n) + BigInt(r.amount_units));
  return out;
}
