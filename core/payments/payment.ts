import type { Selectable } from 'kysely';
import type { Catalog } from '../catalog/catalog.js';
import type { Asset } from '../catalog/types.js';
import { iso, isoOrNull } from '../clock.js';
import { Decimal, fromUnits } from '../money/decimal.js';
import type { PaymentTable } from '../store/schema.js';

export type Payment = Selectable<PaymentTable>;

/** The catalog asset a payment is paid in; every payment's asset is in the catalog it was created from. */
export function paymentAsset(catalog: Catalog, p: Pick<Payment, 'pay_currency'>): Asset {
  const asset = catalog.get(p.pay_currency);
  if (!asset) throw new Error(`asset ${p.pay_currency} left the catalog`);
  return asset;
}

/** Exact decimal texts of a payment's amounts, the only way amounts leave the core. */
export function payAmountText(p: Payment): string {
  return fromUnits(BigInt(p.pay_amount_units), p.decimals);
}

export function actuallyPaidText(p: Payment): string {
  return fromUnits(BigInt(p.actually_paid_units), p.decimals);
}

/**
 * The fields every outside view of a payment's state shares: the status read (API §4.8) and the webhook
 * payload (API §6). One builder, so a receiver and a reconciling read never disagree on a field.
 */
export function paymentStateFields(p: Payment) {
  return {
    payment_id: p.id,
    invoice_id: p.invoice_id,
    payment_status: p.status,
    status_detail: p.status_detail,
    sequence: p.sequence,
    price_amount: new Decimal(p.price_amount),
    price_currency: p.price_currency,
    pay_amount: new Decimal(payAmountText(p)),
    pay_currency: p.pay_currency,
    actually_paid: new Decimal(actuallyPaidText(p)),
    pay_address: p.pay_address,
    extra_id: p.extra_id,
    network: p.network,
    order_id: p.order_id,
    confirmed_at: isoOrNull(p.confirmed_at),
    updated_at: iso(p.updated_at),
  };
}
