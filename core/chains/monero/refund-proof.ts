import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { AppError, err, invalid, ok, type Result } from '../../errors.js';
import { newId } from '../../ids.js';
import { rederiveRefund } from '../../refunds/observe.js';
import type { Refund } from '../../refunds/refund.js';
import { unitsText } from '../../refunds/refundable.js';
import { findMerchantRefund, findRefund } from '../../refunds/store.js';
import { insertRefundTransfer, transfersAt, updateRefundTransfer } from '../../refunds/transfers.js';
import { takeTurns } from '../../store/dialect.js';
import type { Database } from '../../store/schema.js';
import { inTransaction } from '../../store/transaction.js';
import type { RefundProof } from '../family.js';
import type { ChainRegistry } from '../registry.js';
import { decodeAddress } from './monero.js';
import { MoneroChain } from './monero-chain.js';
import { checkTxKey, parseTxKey } from './tx-key.js';

/** How far a miner may set its block's time from the true time (monero's future-time limit). */
const BLOCK_TIME_SLACK_MS = 2 * 3_600_000;

/** Another refund already proved by this transaction: one transfer completes one refund. */
async function txidUsed(db: Kysely<Database>, chain: string, txid: string, refundId: string): Promise<boolean> {
  const row = await db
    .selectFrom('refund_transfers')
    .select('refund_id')
    .where('chain', '=', chain)
    .where('txid', '=', txid)
    .where('refund_id', '!=', refundId)
    .where('removed', '=', 0)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Marks a ready Monero refund `sent` (or `confirmed`, when the transaction already has the chain's confirmations) on
 * the merchant's proof: the txid and tx key of the transfer their wallet made (tx-key.ts checks it
 * against the merchant's monerod as `check_tx_key` does). The transaction must be in a block, pay the refund's address
 * exactly its amount, and be the key's own. It is then recorded like a transfer a watcher saw, so the Monero watcher
 * confirms it as blocks come and follows it by txid through a reorg (a view key cannot see it). Bad input is a 422
 * naming the field, and writes nothing.
 *
 * @example
 * await proveMoneroRefund(db, clock, chains, { merchantId, refundId, txid, txKey }) // ok(refund) with status sent
 */
export async function proveMoneroRefund(
  db: Kysely<Database>,
  clock: Clock,
  chains: ChainRegistry,
  p: RefundProof,
): Promise<Result<Refund>> {
  const r = await findMerchantRefund(db, p.merchantId, p.refundId);
  if (!r) return err(new AppError('NOT_FOUND', 'Refund not found'));
  if (r.network !== 'xmr') return err(invalid('refund_id', 'Only a Monero refund is proved by a transaction key'));
  if (r.status !== 'ready' || r.address === null)
    return err(invalid('refund_id', `Only a ready refund can be proved sent (this one is ${r.status})`));
  const txid = p.txid.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(txid)) return err(invalid('txid', 'Must be a transaction id: 64 hex digits'));
  const keys = parseTxKey(p.txKey);
  if (!keys) return err(invalid('tx_key', 'Must be a transaction key: 64 hex digits per key, as get_tx_key prints it'));
  const key = chains.chainKeyOf(r);
  const source = chains.get(key);
  if (!(source instanceof MoneroChain))
    return err(invalid('txid', 'No monerod is configured for this refund’s network'));
  const tx = await source.proofTransaction(txid);
  if (!tx) return err(invalid('txid', 'monerod does not know this transaction'));
  if (!tx.block) return err(invalid('txid', 'This transaction is not in a block yet; prove it once it is mined'));
  // Money that reached the address before the refund existed is not this refund (as the watchers rule for the other
  // chains, core/refunds/observe.ts); a miner may set its block's time up to two hours off, so that much is allowed.
  if (tx.block.time !== null && tx.block.time < r.created_at - BLOCK_TIME_SLACK_MS)
    return err(invalid('txid', 'This transaction was mined before the refund was created: it is not this refund'));
  const to = decodeAddress(r.address);
  if (!to) return err(invalid('refund_id', 'The refund’s address cannot be read'));
  const proof = checkTxKey(to, keys, tx.extra, tx.outputs);
  const want = BigInt(r.amount_units);
  if (proof.received === 0n) {
    return err(
      proof.keyOfTx
        ? invalid('txid', `This transaction pays nothing to the refund’s address ${r.address}`)
        : invalid('tx_key', 'This is not the key of this transaction'),
    );
  }
  if (proof.received !== want) {
    return err(
      invalid(
        'txid',
        `This transaction pays ${unitsText(proof.received, r.decimals, r.asset)} to the address; the refund is exactly ${unitsText(want, r.decimals, r.asset)}`,
      ),
    );
  }
  return inTransaction(db, async (trx) => {
    const now = clock.now();
    // Two proofs of one transaction at once (two refunds of the same amount to one address) take turns here, so the
    // second sees the first's row: one transfer completes one refund. SQLite writes one transaction at a time anyway.
    await takeTurns(trx, `refund-proof:${key}:${txid}`);
    const fresh = await findRefund(trx, r.id);
    if (fresh?.status !== 'ready')
      return err(invalid('refund_id', `Only a ready refund can be proved sent (this one is ${fresh?.status})`));
    if (await txidUsed(trx, key, txid, r.id)) return err(invalid('txid', 'This transaction proved another refund'));
    const block = tx.block as { height: number; hash: string };
    // Proved before, then dropped (a reorg took its block and monerod lost it, so the watcher, which follows proved
    // transactions by txid, let it go): the same row comes back with its new block rather than a second one.
    const earlier = (await transfersAt(trx, key, txid, proof.outputs[0] ?? 0)).find((x) => x.refund_id === r.id);
    if (earlier) {
      await updateRefundTransfer(trx, earlier.id, {
        block_height: block.height,
        block_hash: block.hash,
        removed: 0,
        updated_at: now,
      });
      await rederiveRefund(trx, r.id, chains, now);
      return ok((await findRefund(trx, r.id)) as Refund);
    }
    await insertRefundTransfer(trx, {
      id: newId('rtx'),
      refund_id: r.id,
      chain: key,
      txid,
      log_index: proof.outputs[0] ?? 0,
      asset: r.asset,
      amount_units: proof.received.toString(),
      exact: 1,
      block_height: block.height,
      block_hash: block.hash,
      removed: 0,
      first_seen_at: now,
      updated_at: now,
    });
    await rederiveRefund(trx, r.id, chains, now);
    return ok((await findRefund(trx, r.id)) as Refund);
  });
}
