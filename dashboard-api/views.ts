import type { ApiDeps } from '../api-kit/deps.js';
import { chainKey } from '../core/chains/types.js';
import { iso, isoOrNull } from '../core/clock.js';
import type { ForwarderRow } from '../core/forwarders/store.js';
import { fromUnits } from '../core/money/decimal.js';
import { confirmations, type Deposit } from '../core/payments/deposits.js';
import { actuallyPaidText, type Payment, payAmountText } from '../core/payments/payment.js';
import type { Attempt, Delivery } from '../core/webhooks/deliveries.js';
import { deliveryView } from '../core/webhooks/delivery-view.js';

/*
 * What the dashboard shows. Amounts are exact decimal strings (as in the drop-in): the page displays them as they
 * are, never through a float.
 */

/** A payment as a row of the list (and the head of its own page). */
export function paymentRowView(p: Payment) {
  return {
    payment_id: p.id,
    kind: p.kind,
    mode: p.mode,
    payment_status: p.status,
    status_detail: p.status_detail,
    sequence: p.sequence,
    price_amount: p.price_amount,
    price_currency: p.price_currency,
    pay_amount: payAmountText(p),
    pay_currency: p.pay_currency,
    actually_paid: actuallyPaidText(p),
    network: p.network,
    pay_address: p.pay_address,
    extra_id: p.extra_id,
    order_id: p.order_id,
    customer_email: p.customer_email,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
    confirmed_at: isoOrNull(p.confirmed_at),
  };
}
export type PaymentRow = ReturnType<typeof paymentRowView>;

/** The payment's own page adds what the list leaves out. */
export function paymentDetailView(p: Payment) {
  const due = BigInt(p.pay_amount_units);
  const paid = BigInt(p.actually_paid_units);
  return {
    ...paymentRowView(p),
    order_description: p.order_description,
    customer_name: p.customer_name,
    invoice_id: p.invoice_id,
    purchase_id: p.purchase_id,
    smart_contract: p.smart_contract,
    expires_at: iso(p.expires_at),
    valid_until: iso(p.valid_until),
    // Exact, in base units: how far the deposits are over or under what was due.
    overpaid_by: paid > due ? fromUnits(paid - due, p.decimals) : null,
    underpaid_by: paid > 0n && paid < due ? fromUnits(due - paid, p.decimals) : null,
    // The paid asset's decimals: refunds are entered and shown from exact base units.
    decimals: p.decimals,
  };
}

/** One change of the payment's timeline, from its outbox event (creation is sequence 1 and has none). */
export function timelineView(
  p: Payment,
  events: { sequence: number; status: string; payload: string; created_at: number }[],
) {
  return [
    { sequence: 1, payment_status: 'waiting', status_detail: 'none', at: iso(p.created_at) },
    ...events.map((e) => ({
      sequence: e.sequence,
      payment_status: e.status,
      status_detail: statusDetailOf(e.payload),
      at: iso(e.created_at),
    })),
  ];
}

function statusDetailOf(payload: string): string {
  try {
    const detail: unknown = (JSON.parse(payload) as { payment?: { status_detail?: unknown } }).payment?.status_detail;
    return typeof detail === 'string' ? detail : 'none';
  } catch {
    return 'none';
  }
}

/** Deposits with their confirmations now, and an explorer link on live networks that configure one. */
export async function depositViews(deps: Pick<ApiDeps, 'chains' | 'catalog'>, p: Payment, deposits: Deposit[]) {
  const key = deps.chains.chainKeyOf(p);
  const head = await deps.chains.headOf(key);
  const required = deps.chains.requiredConfirmations(key);
  const explorer = p.mode === 'live' ? (deps.chains.get(chainKey('live', p.network))?.explorerUrl ?? null) : null;
  return deposits
    .sort((a, b) => a.first_seen_at - b.first_seen_at)
    .map((d) => ({
      txid: d.txid,
      asset: d.asset,
      amount: fromUnits(BigInt(d.amount_units), deps.catalog.get(d.asset)?.decimals ?? p.decimals),
      block_height: d.block_height,
      confirmations: d.removed === 1 ? 0 : Math.min(confirmations(d.block_height, head), 1_000_000),
      required_confirmations: required,
      first_seen_at: iso(d.first_seen_at),
      late: d.late === 1,
      removed: d.removed === 1,
      explorer_url: explorer ? `${explorer}/tx/${encodeURIComponent(d.txid)}` : null,
    }));
}

/**
 * A payment's forwarder and how far its deposits were swept: `swept` once a flush covered every deposit in a block
 * (a later deposit makes it unswept again until the next flush), with the sweep's transaction and the relayer's
 * retry state while it is not.
 */
export function forwarderView(
  f: ForwarderRow,
  deposits: Pick<Deposit, 'block_height' | 'removed'>[],
  explorerUrl: string | null | undefined,
) {
  const unswept = deposits.some(
    (d) => d.removed === 0 && (d.block_height === null || f.swept_through === null || d.block_height > f.swept_through),
  );
  return {
    address: f.address,
    payout: f.payout,
    factory: f.factory,
    swept: f.sweep_tx !== null && !unswept,
    has_deposits: deposits.some((d) => d.removed === 0),
    sweep_tx: f.sweep_tx,
    sweep_tx_url: explorerUrl && f.sweep_tx ? `${explorerUrl}/tx/${f.sweep_tx}` : null,
    swept_at: isoOrNull(f.swept_at),
    relayer_sweep_pending: f.pending_sweep_id !== null,
    sweep_error: f.sweep_error,
    next_sweep_at: isoOrNull(f.next_sweep_at),
  };
}

/**
 * A webhook delivery as the dashboard shows it: the merchant API's view, plus the payment status the event carries
 * (read from the payload, which is what was signed and sent: a redelivery sends the same bytes with a fresh
 * signature) and the payload itself, so a merchant can compare it with what their receiver logged.
 */
export function dashDeliveryView(d: Delivery, attempts: Attempt[]) {
  return { ...deliveryView(d, attempts), payment_status: paymentStatusOf(d.payload), payload: d.payload };
}
export type DashDelivery = ReturnType<typeof dashDeliveryView>;

function paymentStatusOf(payload: string): string | null {
  try {
    const status: unknown = (JSON.parse(payload) as { payment?: { payment_status?: unknown } }).payment?.payment_status;
    return typeof status === 'string' ? status : null;
  } catch {
    return null;
  }
}
