import type { CoreDeps } from '../deps.js';
import { AppError, invalid } from '../errors.js';
import { newId, secretToken } from '../ids.js';
import type { Merchant } from '../merchants/merchants.js';
import { fromUnits } from '../money/decimal.js';
import { DEFAULT_FIAT, type FiatCode, fiatCode } from '../money/fiat.js';
import { payableAsset } from '../payments/create-payment.js';
import { priceMinor, priceText } from '../pricing/amounts.js';
import { type LinkChanges, linkTotalsByStatus, type PaymentLink } from './store.js';

/**
 * Reusable payment links (issue 31): the rules a link follows whichever API made or changed it. Field names in the
 * 422s are the APIs' own (`amount`, `min_amount`, ...), as both APIs take the same body.
 */

/** A link's terms, as the APIs validated them (amounts exact decimal text in `priceCurrency`). */
export interface LinkTerms {
  name: string;
  priceAmount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  priceCurrency: FiatCode;
  currencies: string[] | null;
  maxPayments: number | null;
  endsAt: number | null;
  active: boolean;
}

export type LinkStatus = 'active' | 'inactive' | 'ended' | 'limit_reached';

/** The currency a link prices in (stored as its ISO 4217 code). */
export function linkCurrency(link: Pick<PaymentLink, 'price_currency'>): FiatCode {
  return fiatCode(link.price_currency) ?? DEFAULT_FIAT;
}

/** A price text as it is stored: rounded half-up to its currency's minor units, like every payment's price. */
function storedPrice(text: string, currency: FiatCode): string {
  return priceText(priceMinor(text, currency), currency);
}

/**
 * Checks terms against each other and the merchant's assets, and normalises asset codes to the catalog's. Every
 * check runs before anything is written.
 */
export function checkTerms(deps: Pick<CoreDeps, 'catalog' | 'chains'>, merchant: Merchant, t: LinkTerms): LinkTerms {
  if (t.priceAmount !== null && (t.minAmount !== null || t.maxAmount !== null)) {
    const field = t.minAmount !== null ? 'min_amount' : 'max_amount';
    throw invalid(field, 'Only for an amount the customer enters: leave out amount (the fixed price) to use it');
  }
  const c = t.priceCurrency;
  if (t.minAmount !== null && t.maxAmount !== null && priceMinor(t.minAmount, c) > priceMinor(t.maxAmount, c))
    throw invalid('max_amount', 'Must be at least min_amount');
  let currencies: string[] | null = null;
  if (t.currencies !== null) {
    const codes = new Set<string>();
    for (const code of t.currencies) {
      try {
        codes.add(payableAsset(deps, merchant.mode, code).code);
      } catch (e) {
        if (e instanceof AppError && e.errors?.currency) throw invalid('currencies', e.errors.currency[0] ?? '');
        throw e;
      }
    }
    currencies = [...codes];
  }
  return {
    ...t,
    priceAmount: t.priceAmount === null ? null : storedPrice(t.priceAmount, c),
    minAmount: t.minAmount === null ? null : storedPrice(t.minAmount, c),
    maxAmount: t.maxAmount === null ? null : storedPrice(t.maxAmount, c),
    currencies,
  };
}

/** The columns a link's terms are stored in: what a new link is written with and what a change rewrites. */
export function termColumns(t: LinkTerms): Required<LinkChanges> {
  return {
    name: t.name,
    price_amount: t.priceAmount,
    min_amount: t.minAmount,
    max_amount: t.maxAmount,
    price_currency: t.priceCurrency,
    currencies: t.currencies === null ? null : JSON.stringify(t.currencies),
    max_payments: t.maxPayments,
    ends_at: t.endsAt,
    active: t.active ? 1 : 0,
  };
}

/** The new link's row: its token is 192 random bits (base64url), so its public URL cannot be guessed. */
export function newLinkRow(merchantId: string, t: LinkTerms, now: number): PaymentLink {
  return {
    id: newId('plk'),
    merchant_id: merchantId,
    token: secretToken(24),
    ...termColumns(t),
    created_at: now,
    updated_at: now,
  };
}

/** A stored link's terms, for an update that changes some of them. */
export function termsOf(link: PaymentLink): LinkTerms {
  return {
    name: link.name,
    priceAmount: link.price_amount,
    minAmount: link.min_amount,
    maxAmount: link.max_amount,
    priceCurrency: linkCurrency(link),
    currencies: linkCurrencies(link),
    maxPayments: link.max_payments,
    endsAt: link.ends_at,
    active: link.active === 1,
  };
}

export function linkCurrencies(link: Pick<PaymentLink, 'currencies'>): string[] | null {
  return link.currencies === null ? null : (JSON.parse(link.currencies) as string[]);
}

/** Whether a link takes payments now: `heldPlaces` is countHeldPlaces (payments not expired or failed). */
export function linkStatus(link: PaymentLink, now: number, heldPlaces: number): LinkStatus {
  if (link.active !== 1) return 'inactive';
  if (link.ends_at !== null && link.ends_at <= now) return 'ended';
  if (link.max_payments !== null && heldPlaces >= link.max_payments) return 'limit_reached';
  return 'active';
}

/** Why a link takes no payment, in words a customer reads on its page and a client in the API's 409. */
export const statusMessages: Record<Exclude<LinkStatus, 'active'>, string> = {
  inactive: 'This payment link has been deactivated and takes no payments.',
  ended: 'This payment link has ended and takes no more payments.',
  limit_reached: 'This payment link has reached its limit and takes no more payments.',
};

/** Counts and exact sums of a link's payments per price currency: all of them, and those paid in full. */
export async function linkTotals(deps: Pick<CoreDeps, 'db'>, linkId: string) {
  const rows = await linkTotalsByStatus(deps.db, linkId);
  const by = new Map<string, { payments: number; paid_payments: number; paidThousandths: bigint }>();
  for (const r of rows) {
    const t = by.get(r.priceCurrency) ?? { payments: 0, paid_payments: 0, paidThousandths: 0n };
    t.payments += r.count;
    if (r.status === 'finished') {
      t.paid_payments += r.count;
      t.paidThousandths += r.thousandths;
    }
    by.set(r.priceCurrency, t);
  }
  return [...by].map(([priceCurrency, t]) => ({
    priceCurrency,
    payments: t.payments,
    paidPayments: t.paid_payments,
    paidAmount: fromUnits(t.paidThousandths, 3),
  }));
}
