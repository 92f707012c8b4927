import { formatEther, getAddress, type Hex, parseEventLogs } from 'viem';
import { forwarderAbi } from '../../../../contracts/build/forwarders.js';
import { markSwept, pendingSweep, settleSweep, unsweptForwarders } from '../../../forwarders/store.js';
import { coverage } from './coverage.js';
import type { SweepContext } from './sweep-context.js';

/**
 * The relayer's transaction in flight, if any: re-sent when the node dropped it, settled once mined (its forwarders
 * marked swept, or sent to a backoff when it reverted or a payout refused an asset). True while one is still pending.
 */
export async function followPending(ctx: SweepContext, confirmedHeight: number): Promise<boolean> {
  const sweep = await pendingSweep(ctx.db, ctx.network);
  if (!sweep) return false;
  const hash = sweep.tx_hash as Hex;
  const receipt = await ctx.client.getTransactionReceipt({ hash }).catch(() => null);
  const now = ctx.clock.now();
  if (!receipt) {
    const known = await ctx.client.getTransaction({ hash }).catch(() => null);
    if (!known) {
      // Dropped from the node's pool (a restart, a node switch): the same signed transaction goes out again.
      try {
        await ctx.client.sendRawTransaction({ serializedTransaction: sweep.raw_tx as Hex });
      } catch (e) {
        await settle(ctx, sweep.id, { status: 'failed', error: ctx.safe(e), at: now });
        return false;
      }
    }
    ctx.status.waiting = `sweep transaction ${hash} is waiting to be mined`;
    return true;
  }
  const block = Number(receipt.blockNumber);
  const fee = receipt.gasUsed * receipt.effectiveGasPrice;
  const mined = { block, gasUsed: receipt.gasUsed, fee, at: now };
  if (receipt.status !== 'success') {
    await settle(ctx, sweep.id, { ...mined, status: 'failed', error: 'the transaction reverted' });
    return false;
  }
  const flushes = parseEventLogs({ abi: forwarderAbi, logs: receipt.logs, eventName: 'Flushed' }).map((l) => ({
    forwarder: getAddress(l.address),
    token: getAddress(l.args.token),
    block,
    tx: hash,
  }));
  const members = (
    await unsweptForwarders(ctx.db, { network: ctx.network, chainKey: ctx.chainKey, confirmedHeight, now })
  ).filter((u) => u.forwarder.pending_sweep_id === sweep.id);
  let swept = 0;
  const refused: { paymentId: string; error: string }[] = [];
  for (const u of members) {
    const c = coverage(u, flushes, ctx.tokenOf);
    if ('through' in c) {
      await markSwept(ctx.db, u.forwarder.payment_id, { throughHeight: c.through, txHash: c.tx, at: now });
      swept++;
    } else
      refused.push({ paymentId: u.forwarder.payment_id, error: `the payout did not take the ${c.missing} sent to it` });
  }
  await settle(ctx, sweep.id, { ...mined, status: 'succeeded', refused });
  ctx.logger.info('forwarders swept', {
    network: ctx.network,
    tx: hash,
    forwarders: swept,
    refused: refused.length,
    gas_used: receipt.gasUsed.toString(),
    fee: formatEther(fee),
  });
  return false;
}

/** Settles a relayer transaction in the store, and says so in the log when it failed. */
export async function settle(ctx: SweepContext, id: string, outcome: Parameters<typeof settleSweep>[2]): Promise<void> {
  await settleSweep(ctx.db, id, outcome);
  if (outcome.status === 'failed')
    ctx.logger.warn('forwarder sweep failed', { network: ctx.network, sweep: id, error: outcome.error });
}
