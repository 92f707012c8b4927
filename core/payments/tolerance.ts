import { parseDecimal, usdToCents } from '../money/decimal.js';

/**
 * The shortfall a merchant accepts on one payment, in its base units: the larger of `bps` basis points of the amount
 * due and the USD amount converted with the payment's own USD quote (USD per whole asset, decimal text). Integers
 * only, rounded DOWN, so the accepted shortfall never exceeds what the merchant set. No quote: the USD part is 0.
 *
 * @example toleranceUnits(100_000n, 8, 100, '0.50', '65000') // max(1000, floor(0.50 / 65000 * 1e8) = 769) = 1000n
 */
export function toleranceUnits(
  payUnits: bigint,
  decimals: number,
  bps: number,
  usd: string,
  usdRate: string | null,
): bigint {
  const byBps = (payUnits * BigInt(bps)) / 10_000n;
  const cents = usdToCents(usd) ?? 0n;
  const r = usdRate ? parseDecimal(usdRate) : null;
  // units = cents / 100 / (r.int / 10^r.scale) * 10^decimals
  const byUsd = r && r.int > 0n ? (cents * 10n ** BigInt(decimals + r.scale)) / (100n * r.int) : 0n;
  const most = byBps > byUsd ? byBps : byUsd;
  return most > payUnits ? payUnits : most;
}
