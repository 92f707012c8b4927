import type { Address, Hex } from 'viem';
import type { Unswept } from '../../../forwarders/store.js';

/** A `Flushed(token, amount)` log of a forwarder (`token` is the zero address for the native coin). */
export interface FlushLog {
  forwarder: Address;
  token: Address;
  block: number;
  tx: Hex;
}

/**
 * Whether flushes cover a forwarder's unswept deposits: each asset among them needs a flush of that token in a later
 * block (a flush moves the whole balance it finds, so it takes every deposit mined before it). A payout that refused
 * the native coin leaves a token flush without a native one: that forwarder is not swept.
 *
 * @returns `through`: the height its deposits are swept through (the block before the earliest covering flush), and
 * the latest covering transaction; or the first asset no flush covered.
 */
export function coverage(
  u: Unswept,
  flushes: readonly FlushLog[],
  tokenOf: (asset: string) => Address,
): { through: number; tx: Hex } | { missing: string } {
  const mine = flushes.filter((f) => f.forwarder === u.forwarder.address && f.block > u.throughHeight);
  let through = Number.POSITIVE_INFINITY;
  let latest: FlushLog | null = null;
  for (const asset of u.units.keys()) {
    const token = tokenOf(asset);
    const of = mine.filter((f) => f.token === token);
    if (of.length === 0) return { missing: asset };
    for (const f of of) {
      through = Math.min(through, f.block - 1);
      if (!latest || f.block > latest.block) latest = f;
    }
  }
  if (!latest) return { missing: 'deposit' };
  return { through, tx: latest.tx };
}
