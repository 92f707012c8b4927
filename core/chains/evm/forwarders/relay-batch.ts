import { type Address, createWalletClient, formatEther, formatGwei, type Hex, http, keccak256 } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { deferForwarder, recordSweep, type Unswept } from '../../../forwarders/store.js';
import { newId } from '../../../ids.js';
import { checkRelayerBalance } from '../../../notifications/conditions.js';
import { settle } from './follow-pending.js';
import type { SweepContext } from './sweep-context.js';
import { flushManyData, sweepEntry } from './sweep-transaction.js';

/**
 * The relayer's own work: sends one flushMany batch when it is due (full, or its oldest deposit waited the operator's
 * longest wait), the gas price is within the limit and the relayer can pay for it. The signed transaction is stored
 * before it is sent.
 */
export async function relayBatch(ctx: SweepContext, account: PrivateKeyAccount, due: Unswept[]): Promise<void> {
  const { fwd, client } = ctx;
  const now = ctx.clock.now();
  const balance = await client.getBalance({ address: account.address });
  ctx.status.relayerBalanceWei = balance;
  if (balance < fwd.lowBalanceWei)
    ctx.warnOnce(`relayer ${account.address} on ${ctx.network} is low: ${formatEther(balance)} left`);
  // Members who chose relayer notices hear of it once per episode (the balance read is no change to ride on).
  await checkRelayerBalance(
    ctx.db,
    { network: ctx.network, relayer: account.address, balance: formatEther(balance), low: balance < fwd.lowBalanceWei },
    now,
  );
  ctx.status.waiting = null;
  if (due.length === 0) return;
  const oldest = Math.min(...due.map((u) => u.oldestSeenAt));
  if (due.length < fwd.batchSize && now - oldest < fwd.maxWaitMs) {
    ctx.status.waiting = `batching: ${due.length} of ${fwd.batchSize} forwarders, sent at the latest ${new Date(oldest + fwd.maxWaitMs).toISOString()}`;
    return;
  }
  const gasPrice = await client.getGasPrice();
  if (fwd.maxGasPriceWei !== null && gasPrice > fwd.maxGasPriceWei) {
    ctx.status.waiting = `gas price ${formatGwei(gasPrice)} gwei is above sweepMaxGasPriceGwei ${formatGwei(fwd.maxGasPriceWei)}`;
    return;
  }
  const sendable = await sendableBatch(ctx, due.slice(0, fwd.batchSize), account.address, now);
  if (!sendable) return;
  const { batch, data } = sendable;
  const gas = (sendable.gas * 12n) / 10n;
  const cost = gas * gasPrice;
  if (balance < cost) {
    ctx.status.waiting = `relayer ${account.address} holds ${formatEther(balance)}, a sweep of ${batch.length} forwarders needs about ${formatEther(cost)}: fund it`;
    ctx.warnOnce(ctx.status.waiting);
    return;
  }
  const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const wallet = createWalletClient({ account, transport: http(ctx.config.rpcUrl, { retryCount: 0 }) });
  const raw = await wallet.signTransaction({
    to: fwd.factory,
    data,
    gas,
    gasPrice,
    nonce,
    chain: null,
    type: 'legacy',
    chainId: ctx.config.chainId,
  } as Parameters<typeof wallet.signTransaction>[0]);
  const hash = keccak256(raw);
  const id = newId('swp');
  await recordSweep(
    ctx.db,
    { id, network: ctx.network, sender: account.address, nonce, tx_hash: hash, raw_tx: raw, created_at: now },
    batch.map((u) => u.forwarder.payment_id),
  );
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
    ctx.status.waiting = `sweep transaction ${hash} is waiting to be mined`;
  } catch (e) {
    await settle(ctx, id, { status: 'failed', error: ctx.safe(e), at: now });
  }
}

/**
 * The batch without the forwarders whose flush would revert (a token that refuses its payout: a blacklisted or
 * paused token): one of them must not hold back every other merchant's sweep. Each is tried alone only when the
 * whole batch fails its estimate; those that fail alone wait out a backoff with the node's reason recorded.
 * Returns what to send with its call data and gas estimate, or null when nothing is left.
 */
async function sendableBatch(
  ctx: SweepContext,
  batch: Unswept[],
  from: Address,
  now: number,
): Promise<{ batch: Unswept[]; data: Hex; gas: bigint } | null> {
  const estimate = async (list: Unswept[]) => {
    const data = flushManyData(list.map((u) => sweepEntry(u, ctx.config)));
    return { batch: list, data, gas: await ctx.client.estimateGas({ account: from, to: ctx.fwd.factory, data }) };
  };
  try {
    return await estimate(batch);
  } catch {
    const ok: Unswept[] = [];
    for (const u of batch) {
      try {
        await estimate([u]);
        ok.push(u);
      } catch (e) {
        await deferForwarder(ctx.db, u.forwarder, ctx.safe(e), now);
        ctx.logger.warn('forwarder cannot be flushed', {
          network: ctx.network,
          forwarder: u.forwarder.address,
          error: ctx.safe(e),
        });
      }
    }
    return ok.length > 0 ? estimate(ok) : null;
  }
}
