import type { CoreDeps } from '../deps.js';
import { AppError, invalid } from '../errors.js';
import { getMerchant } from '../merchants/merchants.js';
import { createPayment, payableAsset } from '../payments/create-payment.js';
import type { Payment } from '../payments/payment.js';
import { priceMinor, priceText } from '../pricing/amounts.js';
import { linkCurrencies, linkCurrency, linkStatus, statusMessages } from './links.js';
import { countHeldPlaces, insertLinkPayment, lockLink, type PaymentLink } from './store.js';

/** What the customer filled in on the link's page (validated by the page's and API's shared schema). */
export interface LinkVisit {
  email: string;
  /** Exact decimal text; required when the customer enters the amount, refused otherwise. */
  amount?: string | undefined;
  /** Asset code; defaults to the link's first asset, or the merchant's first payable one. */
  currency?: string | undefined;
  name?: string | undefined;
  originIp?: string | undefined;
}

/** The assets a link's page offers, in the link's own order (its first is the default): its list, or every asset. */
export function linkAssets(deps: Pick<CoreDeps, 'catalog' | 'chains'>, mode: 'test' | 'live', link: PaymentLink) {
  const listed = linkCurrencies(link);
  const assets = listed === null ? deps.catalog.list() : listed.flatMap((code) => deps.catalog.get(code) ?? []);
  return assets.filter((a) => deps.chains.isEnabled(mode, a.network));
}

/** The 409 of a link that takes no payment now. */
function notTaking(status: keyof typeof statusMessages): AppError {
  return new AppError('CONFLICT', statusMessages[status]);
}

/** The price of this visit: the fixed price, or the customer's amount within the link's bounds (422 on `amount`). */
function visitPrice(link: PaymentLink, amount: string | undefined): string {
  if (link.price_amount !== null) {
    if (amount !== undefined) throw invalid('amount', 'This link has a fixed price: leave the amount out');
    return link.price_amount;
  }
  if (amount === undefined) throw invalid('amount', 'Enter the amount to pay');
  const c = linkCurrency(link);
  // In the link's currency's own minor units (JPY 0, most 2), rounded half-up as every price is.
  const minor = priceMinor(amount, c);
  if (link.min_amount !== null && minor < priceMinor(link.min_amount, c))
    throw invalid('amount', `The amount must be at least ${link.min_amount} ${c}`);
  if (link.max_amount !== null && minor > priceMinor(link.max_amount, c))
    throw invalid('amount', `The amount must be at most ${link.max_amount} ${c}`);
  return priceText(minor, c);
}

/**
 * One visit of a reusable link makes one new payment, through the same creation path as POST /payments
 * (createPayment). The link's state is checked once before pricing (a clear answer without quoting) and again in the
 * payment's own transaction with the link locked, where the limit is counted: two customers at the limit at once
 * never make limit + 1 payments, and a refused visit writes nothing.
 */
export async function payLink(deps: CoreDeps, link: PaymentLink, visit: LinkVisit): Promise<Payment> {
  const merchant = await getMerchant(deps.db, link.merchant_id);
  if (merchant?.active !== 1) throw notTaking('inactive');
  const early = linkStatus(
    link,
    deps.clock.now(),
    link.max_payments === null ? 0 : await countHeldPlaces(deps.db, link.id),
  );
  if (early !== 'active') throw notTaking(early);
  const price = visitPrice(link, visit.amount);
  const offered = linkAssets(deps, merchant.mode, link);
  const asked =
    visit.currency === undefined ? offered[0]?.code : payableAsset(deps, merchant.mode, visit.currency).code;
  if (asked === undefined || !offered.some((a) => a.code === asked))
    throw invalid('currency', `This link takes ${offered.map((a) => a.code).join(', ') || 'no currency right now'}`);
  return createPayment(
    deps,
    merchant,
    {
      kind: 'link',
      priceAmount: price,
      priceCurrency: linkCurrency(link),
      currency: asked,
      email: visit.email,
      name: visit.name,
      orderDescription: link.name,
      originIp: visit.originIp,
    },
    async (trx, payment) => {
      const now = deps.clock.now();
      const locked = await lockLink(trx, link.id, now);
      if (!locked) throw notTaking('inactive');
      const status = linkStatus(locked, now, locked.max_payments === null ? 0 : await countHeldPlaces(trx, link.id));
      if (status !== 'active') throw notTaking(status);
      await insertLinkPayment(trx, link.id, payment.id, now);
    },
  );
}
