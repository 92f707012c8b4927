import { type Address, getAddress } from 'viem';
import { forwarderAbi } from '../../../../contracts/build/forwarders.js';
import { markSwept, type Unswept } from '../../../forwarders/store.js';
import { coverage, type FlushLog } from './coverage.js';
import type { SweepContext } from './sweep-context.js';

const FLUSHED = forwarderAbi.find((x) => x.type === 'event' && x.name === 'Flushed') as Extract<
  (typeof forwarderAbi)[number],
  { type: 'event'; name: 'Flushed' }
>;

/** Per listed forwarder: the block its Flushed logs were read through, and those found after its deposits. */
export type FlushScans = Map<string, { through: number; flushes: FlushLog[] }>;

/**
 * Flushes anyone made (the dashboard's wallet, the CLI's calldata, a stranger: every flush emits `Flushed` from the
 * forwarder): a forwarder is swept once each asset of its unswept deposits has a `Flushed` log after them. `scans`
 * carries over between passes. Returns how many forwarders it marked swept.
 */
export async function reconcileFlushes(ctx: SweepContext, unswept: Unswept[], scans: FlushScans): Promise<number> {
  let marked = 0;
  const tip = Number(await ctx.client.getBlockNumber());
  const listed = new Set(unswept.map((u) => u.forwarder.payment_id));
  for (const id of scans.keys()) if (!listed.has(id)) scans.delete(id);
  for (let i = 0; i < unswept.length; i += 200) {
    const chunk = unswept.slice(i, i + 200);
    // Each forwarder's logs are read once per block: from its deposits on the first time it is listed, then only
    // the blocks since the last pass (a long-unswept forwarder never makes a node search its whole history again).
    const fromOf = (u: Unswept) => (scans.get(u.forwarder.payment_id)?.through ?? u.throughHeight) + 1;
    const from = Math.min(...chunk.map(fromOf));
    if (from <= tip) {
      const logs = await ctx.client.getLogs({
        address: chunk.map((u) => u.forwarder.address as Address),
        event: FLUSHED,
        fromBlock: BigInt(from),
        toBlock: BigInt(tip),
      });
      for (const l of logs) {
        if (l.blockNumber === null || l.transactionHash === null || !l.args.token) continue;
        const u = chunk.find((x) => x.forwarder.address === getAddress(l.address));
        if (!u || Number(l.blockNumber) < fromOf(u)) continue;
        const seen = scans.get(u.forwarder.payment_id) ?? { through: tip, flushes: [] };
        seen.flushes.push({
          forwarder: getAddress(l.address),
          token: getAddress(l.args.token),
          block: Number(l.blockNumber),
          tx: l.transactionHash,
        });
        scans.set(u.forwarder.payment_id, seen);
      }
    }
    for (const u of chunk) {
      const seen = scans.get(u.forwarder.payment_id) ?? { through: tip, flushes: [] };
      seen.through = Math.max(seen.through, tip);
      scans.set(u.forwarder.payment_id, seen);
      const c = coverage(u, seen.flushes, ctx.tokenOf);
      if (!('through' in c)) continue;
      await markSwept(ctx.db, u.forwarder.payment_id, { throughHeight: c.through, txHash: c.tx, at: ctx.clock.now() });
      scans.delete(u.forwarder.payment_id);
      marked++;
    }
  }
  return marked;
}
