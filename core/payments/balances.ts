import type { CoreDeps } from '../deps.js';
import { fromUnits, unitsToUsd } from '../money/decimal.js';
import { confirmations, merchantDeposits } from './deposits.js';

export interface BalanceEntry {
  currency: string;
  amount: string;
  pendingAmount: string;
  usdAmount: string;
  pendingUsdAmount: string;
  updatedAt: number;
}

/** Payments whose confirmed deposits count in `amount` (DESIGN.md): finished, partially paid, or paid late. */
const SETTLED_FOR_BALANCE = new Set(['finished', 'partially_paid']);

/**
 * Balances derived from deposits, never stored: `amount` = confirmed deposits of finished, partially_paid and
 * late payments; `pending_amount` = deposits not yet confirmed. Non-custodial: this is what reached the
 * merchant's own addresses, not funds we hold.
 */
export async function balances(
  deps: Pick<CoreDeps, 'db' | 'chains' | 'catalog' | 'rates'>,
  merchantId: string,
  mode: 'test' | 'live',
): Promise<BalanceEntry[]> {
  const rows = await merchantDeposits(deps.db, merchantId);
  const heads = new Map<string, number | null>();
  const acc = new Map<string, { confirmed: bigint; pending: bigint; updatedAt: number }>();
  for (const r of rows) {
    if (!heads.has(r.network)) heads.set(r.network, await deps.chains.headOf(r.network));
    const head = heads.get(r.network) ?? null;
    const confs = confirmations(r.block_height, head);
    const entry = acc.get(r.asset) ?? { confirmed: 0n, pending: 0n, updatedAt: 0 };
    const units = BigInt(r.amount_units);
    if (confs < deps.chains.requiredConfirmations(r.network)) entry.pending += units;
    else if (SETTLED_FOR_BALANCE.has(r.status) || r.status_detail === 'paid_late' || r.late === 1)
      entry.confirmed += units;
    entry.updatedAt = Math.max(entry.updatedAt, r.updated_at);
    acc.set(r.asset, entry);
  }
  const out: BalanceEntry[] = [];
  for (const [code, e] of acc) {
    const asset = deps.catalog.get(code);
    if (!asset) continue;
    let rate: string | null = null;
    try {
      rate = (await deps.rates[mode].usdRate(asset)).rate;
    } catch {
      rate = null; // a stale price must not hide balances; USD figures read 0 until prices return
    }
    out.push({
      currency: code,
      amount: fromUnits(e.confirmed, asset.decimals),
      pendingAmount: fromUnits(e.pending, asset.decimals),
      usdAmount: rate ? unitsToUsd(e.confirmed, asset.decimals, rate) : '0',
      pendingUsdAmount: rate ? unitsToUsd(e.pending, asset.decimals, rate) : '0',
      updatedAt: e.updatedAt,
    });
  }
  return out.sort((a, b) => a.currency.localeCompare(b.currency));
}
