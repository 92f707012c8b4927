import type { Kysely } from 'kysely';
import type { Asset } from '../catalog/types.js';
import type { CoreDeps } from '../deps.js';
import { invalid } from '../errors.js';
import { newId } from '../ids.js';
import type { Merchant } from '../merchants/merchants.js';
import { usdToCents } from '../money/decimal.js';
import { type FiatCode, fiatCode } from '../money/fiat.js';
import { MAX_PRICE_USD, minimumAmount, priceMinor, priceText, priceToUnits, unitsValue } from '../pricing/amounts.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { recordUsdQuote } from './exceptions-store.js';
import type { Payment } from './payment.js';
import { insertPayment } from './store.js';

export interface NewPayment {
  /** Chosen by the caller when it must know the id before the payment exists (Idempotency-Key claims). */
  id?: string | undefined;
  kind: 'direct' | 'link';
  /** The price as exact decimal text (from the JSON number's own digits), in `priceCurrency`. */
  priceAmount: string;
  /** ISO 4217 code of the price. @default the merchant's default currency (merchantCurrency), USD unless set */
  priceCurrency?: FiatCode | undefined;
  currency: string;
  email: string;
  name?: string | undefined;
  orderId?: string | undefined;
  orderDescription?: string | undefined;
  successUrl?: string | undefined;
  cancelUrl?: string | undefined;
  isFixedRate?: boolean | undefined;
  isFeePaidByUser?: boolean | undefined;
  originIp?: string | undefined;
  /** Payment links: seconds the quote holds; direct payments use PAYMENT_TTL_SECONDS. */
  timeLimitSeconds?: number | undefined;
}

/** Looks up an asset payable by this merchant's mode, or the 422 the API contract asks for on `currency`. */
export function payableAsset(deps: Pick<CoreDeps, 'catalog' | 'chains'>, mode: Merchant['mode'], code: string): Asset {
  const asset = deps.catalog.get(code);
  if (!asset) throw invalid('currency', `Unknown currency "${code}"; GET /currencies lists the supported ones`);
  if (!deps.chains.isEnabled(mode, asset.network)) {
    throw invalid(
      'currency',
      `Currency ${asset.code} is not enabled${mode === 'live' ? ': its network is not configured or not reachable' : ''}`,
    );
  }
  return asset;
}

/** The currency a merchant prices in when a request names none: its setting, else USD. */
export function merchantCurrency(merchant: Pick<Merchant, 'default_currency'>): FiatCode {
  return fiatCode(merchant.default_currency) ?? 'USD';
}

/**
 * Prices and stores a new payment with its own address, in one transaction with `alsoInTransaction` (a drop-in
 * session pointing at it, say). Every check runs before anything is written, so a refused payment writes nothing.
 * The quote is exact: pay_amount is rounded up (docs/architecture.md money rules), so rounding never underpays. Published as
 * a `created` change once committed.
 */
export async function createPayment(
  deps: CoreDeps,
  merchant: Merchant,
  input: NewPayment,
  alsoInTransaction?: (trx: Kysely<Database>, payment: Payment) => Promise<void>,
): Promise<Payment> {
  const asset = payableAsset(deps, merchant.mode, input.currency);
  const currency = input.priceCurrency ?? merchantCurrency(merchant);
  const minor = priceMinor(input.priceAmount, currency);
  const rates = deps.rates[merchant.mode];
  const usdRate = (await rates.usdRate(asset)).rate;
  // The price's own currency prices it: one conversion, rounded up once, as for USD.
  const rate = currency === 'USD' ? usdRate : (await rates.rate(asset, currency)).rate;
  const payUnits = priceToUnits(asset, minor, currency, rate);
  // The asset's minimum is set in USD (catalog) and shown in the price's currency.
  const min = minimumAmount(asset, usdRate);
  if (payUnits < min.minUnits) {
    const minText = currency === 'USD' ? min.minUsd : unitsValue(asset, min.minUnits, currency, rate);
    throw invalid(
      'amount',
      `Amount ${priceText(minor, currency)} ${currency} is below the minimum of ${minText} ${currency} for ${asset.code} (GET /minimum-amount)`,
    );
  }
  if (currency !== 'USD') {
    // The typo guard USD prices have (MAX_PRICE_USD), applied to what this price is worth in USD.
    const worth = unitsValue(asset, payUnits, 'USD', usdRate);
    if ((usdToCents(worth) ?? 0n) > MAX_PRICE_USD * 100n) {
      throw invalid('amount', `Amount must not be worth more than ${MAX_PRICE_USD} USD (it is ${worth} USD)`);
    }
  }

  const now = deps.clock.now();
  const ttl = input.timeLimitSeconds ?? deps.settings.ttlSeconds;
  const expiresAt = now + ttl * 1000;
  // The caller's transaction when it has one (a dashboard change and its audit entry commit together).
  const created = await inTransaction(deps.db, async (trx) => {
    // The address comes inside the transaction: an index counter taken by a payment that rolls back is skipped.
    const id = input.id ?? newId('pay');
    const allocated = await deps.allocators[merchant.mode].allocate(trx, merchant, asset, id);
    const payment: Payment = {
      id,
      invoice_id: newId('inv'),
      purchase_id: newId('pur'),
      merchant_id: merchant.id,
      mode: merchant.mode,
      kind: input.kind,
      status: 'waiting',
      status_detail: 'none',
      sequence: 1,
      price_amount: priceText(minor, currency),
      price_currency: currency,
      pay_currency: asset.code,
      network: asset.network,
      decimals: asset.decimals,
      precision: asset.decimals,
      pay_amount_units: payUnits.toString(),
      actually_paid_units: '0',
      rate,
      pay_address: allocated.address,
      extra_id: allocated.extraId,
      address_index: allocated.index,
      smart_contract: asset.smartContract,
      customer_name: input.name ?? null,
      customer_email: input.email,
      order_id: input.orderId ?? null,
      order_description: input.orderDescription ?? null,
      success_url: input.successUrl ?? null,
      cancel_url: input.cancelUrl ?? null,
      ipn_callback_url: merchant.webhook_url,
      origin_ip: input.originIp ?? null,
      is_fixed_rate: input.isFixedRate ? 1 : 0,
      is_fee_paid_by_user: input.isFeePaidByUser ? 1 : 0,
      time_limit: ttl,
      created_at: now,
      updated_at: now,
      expires_at: expiresAt,
      valid_until: expiresAt + deps.settings.graceSeconds * 1000,
      confirmed_at: null,
    };
    await insertPayment(trx, payment);
    // A USD tolerance converts with the quote the customer was given (USD-priced payments carry it in `rate`).
    if (currency !== 'USD') await recordUsdQuote(trx, id, usdRate);
    await alsoInTransaction?.(trx, payment);
    return payment;
  });
  deps.changes.publish([{ kind: 'created', payment: created }]);
  return created;
}
