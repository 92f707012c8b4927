import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { encodeAddress, hashToScalar, sandboxSubaddress, viewKeyHex } from '../core/chains/monero/monero.js';
import { setViewKey } from '../core/chains/monero/monero-keys.js';
import { startMonerod } from '../core/chains/monero/testing/monerod.js';
import { systemClock } from '../core/clock.js';
import { runIfMain } from './standalone.js';
import type { Summary, WatcherBench, WatcherPhase } from './watcher-driver.js';
import { cpuPerBlock, cpuRatio, round, sleep, summary, withChainBench, withWatchedService } from './watcher-driver.js';

export interface MoneroPhase extends WatcherPhase {
  /** transfer answered (the transaction is in monerod's pool) -> payment confirming in the store. */
  mempoolToConfirmingMs: Summary;
  /** The block carrying the deposit is monerod's tip -> payment finished in the store (1 confirmation). */
  blockToFinishedMs: Summary;
  /** RingCT transactions per block in the CPU window (each scanned with the merchant's view key). */
  txPerBlock: number;
}

export type MoneroBench = WatcherBench<MoneroPhase>;

/**
 * Issue 22 benchmark, on a real `monerod --regtest` and a paying monero-wallet-rpc. The service (own process, SQLite)
 * watches it with a 250 ms poll and 1 confirmation, scanning every transaction with the merchant's view key. Latency:
 * a payment created over HTTP and paid from the wallet, pool -> confirming, then its block -> finished. CPU: blocks of
 * `txPerBlock` stranger transactions (2 outputs each) mined after they were in the pool. Open payments sit at random
 * subaddresses nobody pays: their number enters only the watcher's indexed address lookup.
 */
export async function benchMonero(
  opts: { samples?: number; cpuBlocks?: number; txPerBlock?: number; openCounts?: number[] } = {},
): Promise<MoneroBench> {
  const samples = opts.samples ?? 8;
  const cpuBlocks = opts.cpuBlocks ?? 8;
  const txPerBlock = opts.txPerBlock ?? 3;
  const openCounts = opts.openCounts ?? [100, 10_000];
  const pollIntervalMs = 250;
  const node = await startMonerod();
  return withChainBench(node, { monero: 150 }, async ({ ratesUrl, config }) => {
    const configFile = config({ xmr: { rpcUrl: node.url, confirmations: 1, pollIntervalMs, timeoutMs: 10_000 } });
    const phases: MoneroPhase[] = [];
    for (const open of openCounts) {
      const G = ed25519.Point.BASE;
      const a = hashToScalar(randomBytes(32));
      const address = encodeAddress({
        net: 'main',
        kind: 'standard',
        spendPub: G.multiply(hashToScalar(randomBytes(32))).toBytes(),
        viewPub: G.multiply(a).toBytes(),
      });
      const seed = {
        register: async (db: Parameters<typeof setViewKey>[0], merchantId: string) => {
          const r = await setViewKey(db, systemClock, merchantId, address, viewKeyHex(a));
          if (!r.ok) throw r.error;
        },
        open,
        asset: { payCurrency: 'XMR', network: 'xmr', decimals: 12, payAmountUnits: '200000000000', rate: '150' },
        randomAddress: () => sandboxSubaddress(randomBytes(32)),
      };
      const env = { CHAINS_CONFIG: configFile, RATES_BASE_URL: ratesUrl, WATCH_NETWORK: 'xmr' };
      const phase = await withWatchedService(seed, env, async (service) => {
        const toConfirming: number[] = [];
        const toFinished: number[] = [];
        for (let i = 0; i < samples; i++) {
          const { id, address } = await service.createPayment('XMR');
          const txid = await node.pay([{ address, amount: 200_000_000_000n }]);
          const sent = Date.now();
          const confirming = await service.waitFor((s) => s.confirmingAt[id] !== undefined, 60_000);
          toConfirming.push((confirming.confirmingAt[id] as number) - sent);
          await sleep(Math.random() * pollIntervalMs);
          await node.mineUntilIn(txid);
          const mined = Date.now();
          const finished = await service.waitFor((s) => s.finishedAt[id] !== undefined, 60_000);
          toFinished.push((finished.finishedAt[id] as number) - mined);
        }

        await sleep(500);
        await service.stats('/reset');
        let txs = 0;
        for (let b = 0; b < cpuBlocks; b++) {
          const ids: string[] = [];
          for (let t = 0; t < txPerBlock; t++)
            ids.push(await node.pay([{ address: sandboxSubaddress(randomBytes(32)), amount: 1_000_000n }]));
          txs += ids.length;
          await sleep(pollIntervalMs * 2);
          const before = (await service.stats()).blocks;
          for (const id of ids) await node.mineUntilIn(id);
          await service.waitFor((s) => s.blocks > before, 60_000);
        }
        await sleep(pollIntervalMs * 2);
        const s = await service.stats();
        return {
          openPayments: open,
          samples,
          mempoolToConfirmingMs: summary(toConfirming),
          blockToFinishedMs: summary(toFinished),
          ...cpuPerBlock(s),
          blocks: s.blocks,
          txPerBlock: round(txs / Math.max(1, s.blocks), 2),
          rssMb: round(s.rss / 1048576, 1),
        };
      });
      phases.push(phase);
    }
    return {
      pollIntervalMs,
      phases,
      cpuRatio: cpuRatio(phases),
      note: 'XMR on monerod 0.18 regtest, one merchant view key. Latencies end when the payment changed in the store; they include up to one poll interval.',
    };
  });
}

runIfMain(import.meta.url, benchMonero);
