import type { CoreDeps } from '../deps.js';
import { AppError, invalid } from '../errors.js';
import { linkAssets } from '../links/pay-link.js';
import { insertLinkPayment, linkOfPayment } from '../links/store.js';
import { getMerchant, type Merchant } from '../merchants/merchants.js';
import { fiatCode } from '../money/fiat.js';
import { stateChanges } from '../payments/changes.js';
import { createPayment, payableAsset } from '../payments/create-payment.js';
import type { Payment } from '../payments/payment.js';
import { findPayment } from '../payments/store.js';
import { customerChooses, letCustomerChoose } from './customer-choice.js';
import { pageTokenValid } from './page-token.js';
import { createSessionPayment, type DropinSession, expireReplaced, findSessionByToken } from './sessions.js';

/**
 * What a checkout token opens: a drop-in session (`cs_...`, created with a `dk_` key), or a hosted page
 * (`pt_{payment_id}.{page token}`, from `hosted_payment_url`). Both read and pay exactly one checkout.
 */
export type Checkout =
  | { kind: 'session'; token: string; merchant: Merchant; session: DropinSession }
  | { kind: 'hosted'; token: string; merchant: Merchant; payment: Payment };

/** The checkout a token opens, or null: unknown, expired, forged, or its merchant deactivated (all alike). */
export async function resolveCheckout(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'settings'>,
  token: string,
): Promise<Checkout | null> {
  if (token.length > 200) return null;
  if (token.startsWith('cs_')) {
    const session = await findSessionByToken(deps.db, token);
    if (!session || session.expires_at <= deps.clock.now()) return null;
    const merchant = await getMerchant(deps.db, session.merchant_id);
    if (merchant?.active !== 1) return null;
    return { kind: 'session', token, merchant, session };
  }
  const m = /^pt_([a-z0-9_]{1,64})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m?.[1] || !m[2] || !pageTokenValid(m[1], m[2], deps.settings.pageSecret)) return null;
  const payment = await findPayment(deps.db, m[1]);
  if (!payment) return null;
  const merchant = await getMerchant(deps.db, payment.merchant_id);
  if (merchant?.active !== 1) return null;
  return { kind: 'hosted', token, merchant, payment };
}

/** What a checkout is known by inside the service (never its token, which is a capability): session or payment id. */
export function checkoutId(x: Checkout): string {
  return x.kind === 'session' ? x.session.id : x.payment.id;
}

/** The payment a checkout shows now, as the store has it, if any. */
export async function currentPayment(deps: Pick<CoreDeps, 'db'>, x: Checkout): Promise<Payment | null> {
  const id = x.kind === 'hosted' ? x.payment.id : x.session.payment_id;
  return id === null ? null : ((await findPayment(deps.db, id)) ?? null);
}

/** A payment that can still be paid as quoted: nothing received yet and still waiting. */
function untouched(p: Payment): boolean {
  return p.status === 'waiting' && p.actually_paid_units === '0';
}

/**
 * The customer's asset choice, through the same core as POST /payments. Choosing again while the quote holds returns
 * the same payment (a double click creates nothing); another asset before paying replaces it and expires it at once
 * (README, drop-in: abandoned choices); after expiry it is the retry of API §4.7, a new payment. Once money arrived the choice is final (409), so a payment in flight is
 * never orphaned. A hosted page's new payment copies the old one's order and return URLs.
 */
export async function choosePayment(
  deps: CoreDeps,
  x: Checkout,
  currency: string,
  originIp: string,
): Promise<{ payment: Payment; created: boolean }> {
  const asset = payableAsset(deps, x.merchant.mode, currency);
  const current = await currentPayment(deps, x);
  if (current && !untouched(current) && current.status !== 'expired' && current.status !== 'failed') {
    throw new AppError(
      'CONFLICT',
      `This checkout already received a payment (status ${current.status}); it cannot start another one`,
    );
  }
  if (current && untouched(current) && current.pay_currency === asset.code && current.expires_at > deps.clock.now()) {
    return { payment: current, created: false };
  }
  if (x.kind === 'session') {
    return { payment: await createSessionPayment(deps, x.merchant, x.session, asset.code, originIp), created: true };
  }
  const source = x.payment;
  const expired: Payment[] = [];
  // A link whose customer chooses the asset stays theirs to choose on the new payment's page.
  const picks = await customerChooses(deps.db, source.id);
  // A payment of a reusable link: the new one keeps to the link's assets and joins its list (totals, limit).
  const reusable = await linkOfPayment(deps.db, source.id);
  if (reusable && !linkAssets(deps, x.merchant.mode, reusable).some((a) => a.code === asset.code))
    throw invalid(
      'currency',
      `This link takes ${linkAssets(deps, x.merchant.mode, reusable)
        .map((a) => a.code)
        .join(', ')}`,
    );
  // A page whose asset the merchant chose (API §4.6 `currency`, or the dashboard's) offers no picker: it stays in it.
  if (!picks && !reusable && asset.code !== source.pay_currency)
    throw invalid('currency', `This payment is in ${source.pay_currency}: its merchant chose the asset`);
  const payment = await createPayment(
    deps,
    x.merchant,
    {
      kind: source.kind,
      priceAmount: source.price_amount,
      // The same price in the same currency: the merchant's default may have changed since.
      priceCurrency: fiatCode(source.price_currency) ?? undefined,
      currency: asset.code,
      email: source.customer_email,
      name: source.customer_name ?? undefined,
      orderId: source.order_id ?? undefined,
      orderDescription: source.order_description ?? undefined,
      successUrl: source.success_url ?? undefined,
      cancelUrl: source.cancel_url ?? undefined,
      isFixedRate: source.is_fixed_rate === 1,
      isFeePaidByUser: source.is_fee_paid_by_user === 1,
      timeLimitSeconds: source.kind === 'link' ? source.time_limit : undefined,
      originIp,
    },
    // The hosted page's earlier payment is abandoned like a drop-in session's (expireReplaced).
    async (trx, p) => {
      expired.push(...(await expireReplaced(trx, deps, source.id, p.created_at)));
      if (picks) await letCustomerChoose(trx, p.id, p.created_at);
      if (reusable) await insertLinkPayment(trx, reusable.id, p.id, p.created_at);
    },
  );
  deps.changes.publish(stateChanges(expired));
  return { payment, created: true };
}
