import type { CoreDeps } from '../deps.js';
import { fromUnits, unitsToFiat, unitsToUsd } from '../money/decimal.js';
import { type FiatCode, minorUnits } from '../money/fiat.js';
import { balanceTotals } from './balance-totals.js';

export interface BalanceEntry {
  currency: string;
  amount: string;
  pendingAmount: string;
  usdAmount: string;
  pendingUsdAmount: string;
  /** With `alsoIn`: the same two values in that currency (the dashboard's merchant currency). */
  inCurrency?: { currency: FiatCode; amount: string; pendingAmount: string };
  updatedAt: number;
}

/**
 * A merchant's balances: `amount` = confirmed deposits of finished, partially_paid and late payments;
 * `pending_amount` = deposits not yet confirmed (the rule is in core/payments/balance-totals.ts). Read from the
 * totals kept with every deposit change, one row per asset: the cost does not grow with the number of payments.
 * Non-custodial: this is what reached the merchant's own addresses, not funds we hold.
 */
export async function balances(
  deps: Pick<CoreDeps, 'db' | 'catalog' | 'rates'>,
  merchantId: string,
  mode: 'test' | 'live',
  alsoIn?: FiatCode,
): Promise<BalanceEntry[]> {
  const out: BalanceEntry[] = [];
  for (const t of await balanceTotals(deps.db, merchantId)) {
    const asset = deps.catalog.get(t.asset);
    if (!asset) continue;
    let rate: string | null = null;
    try {
      rate = (await deps.rates[mode].usdRate(asset)).rate;
    } catch {
      rate = null; // a stale price must not hide balances; USD figures read 0 until prices return
    }
    let inCurrency: BalanceEntry['inCurrency'];
    if (alsoIn && alsoIn !== 'USD') {
      const r = await deps.rates[mode].rate(asset, alsoIn).then(
        (x) => x.rate,
        () => null, // as for USD: a stale price reads 0, never hides the balance
      );
      const value = (units: bigint) => (r ? unitsToFiat(units, asset.decimals, r, minorUnits(alsoIn)) : '0');
      inCurrency = { currency: alsoIn, amount: value(t.amountUnits), pendingAmount: value(t.pendingUnits) };
    }
    out.push({
      ...(inCurrency ? { inCurrency } : {}),
      currency: t.asset,
      amount: fromUnits(t.amountUnits, asset.decimals),
      pendingAmount: fromUnits(t.pendingUnits, asset.decimals),
      usdAmount: rate ? unitsToUsd(t.amountUnits, asset.decimals, rate) : '0',
      pendingUsdAmount: rate ? unitsToUsd(t.pendingUnits, asset.decimals, rate) : '0',
      updatedAt: t.updatedAt,
    });
  }
  return out.sort((a, b) => a.currency.localeCompare(b.currency));
}
