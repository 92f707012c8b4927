import { randomBytes } from 'node:crypto';
import { bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { MAX_REGTEST_HEIGHT, startLitecoind } from '../core/chains/bitcoin/testing/litecoind.js';
import { runIfMain } from './standalone.js';
import type { Summary, WatcherBench, WatcherPhase } from './watcher-driver.js';
import { cpuPerBlock, cpuRatio, round, sleep, summary, withChainBench, withWatchedService } from './watcher-driver.js';

export interface BitcoinPhase extends WatcherPhase {
  /** sendtoaddress answered (the transaction is in the node's mempool) -> payment confirming in the store. */
  mempoolToConfirmingMs: Summary;
  /** generatetoaddress answered (the block is the node's tip) -> payment finished in the store (1 confirmation). */
  blockToFinishedMs: Summary;
  /** Matching-kind (P2WPKH) outputs per block, nearly all to strangers. */
  outputsPerBlock: number;
  peakRssMb: number;
}

export interface BitcoinBench extends WatcherBench<BitcoinPhase> {
  confirmations: number;
}

const TEST_VERSIONS = { private: 0x04358394, public: 0x043587cf };

/** A random Litecoin regtest P2WPKH address: a stranger's, or an open payment's that nobody pays. */
function randomAddress(): string {
  return bech32.encode('rltc', [0, ...bech32.toWords(randomBytes(20))]);
}

/**
 * Issue 14 benchmark, on a real `litecoind -regtest` (the LTC code path is BTC's and DOGE's). The service (own
 * process, SQLite) watches it with a 250 ms poll and 1 confirmation. Latency: a payment created over HTTP and paid
 * from the node's wallet, mempool -> confirming, then one block -> finished. CPU: blocks of 200 stranger outputs (four
 * 50-output transactions) plus one deposit to an open payment, each block mined after its transactions were in the
 * mempool (the watcher fetched them there, as on a live node). Run with 100 and with 100,000 open payments.
 */
export async function benchBitcoin(
  opts: { samples?: number; cpuBlocks?: number; openCounts?: number[] } = {},
): Promise<BitcoinBench> {
  const samples = opts.samples ?? 20;
  const cpuBlocks = opts.cpuBlocks ?? 40;
  const openCounts = opts.openCounts ?? [100, 100_000];
  const pollIntervalMs = 250;
  const confirmations = 1;
  const node = await startLitecoind();
  return withChainBench(node, { litecoin: 100 }, async ({ ratesUrl, config }) => {
    const phases: BitcoinPhase[] = [];
    // Regtest stops at MWEB's activation height: every block this benchmark mines must fit below it.
    const need = openCounts.length * (samples + cpuBlocks + 4);
    const height = await node.rpc.call<number>('getblockcount');
    if (height + need > MAX_REGTEST_HEIGHT) throw new Error(`needs ${need} blocks, regtest has room for fewer`);
    const configFile = config({
      ltc: { rpcUrl: node.url, cookieFile: node.cookieFile, chain: 'regtest', confirmations, pollIntervalMs },
    });
    for (const open of openCounts) {
      const xpub = HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS).derive("m/84'/1'/0'").publicExtendedKey;
      const seed = {
        chain: 'ltc' as const,
        xpub,
        net: 'regtest' as const,
        open,
        asset: { payCurrency: 'LTC', network: 'ltc', decimals: 8, payAmountUnits: '30000000', rate: '100' },
        randomAddress,
      };
      const env = { CHAINS_CONFIG: configFile, RATES_BASE_URL: ratesUrl, WATCH_NETWORK: 'ltc' };
      const phase = await withWatchedService(seed, env, async (service, { addresses }) => {
        const toConfirming: number[] = [];
        const toFinished: number[] = [];
        for (let i = 0; i < samples; i++) {
          const { id, address } = await service.createPayment('LTC');
          await node.send(address, '0.3');
          const sent = Date.now();
          const confirming = await service.waitFor((s) => s.confirmingAt[id] !== undefined);
          toConfirming.push((confirming.confirmingAt[id] as number) - sent);
          // Sends and blocks fall at every phase of the poll interval across samples (not just after a poll).
          await sleep(Math.random() * pollIntervalMs);
          await node.mine(1);
          const mined = Date.now();
          const finished = await service.waitFor((s) => s.finishedAt[id] !== undefined);
          toFinished.push((finished.finishedAt[id] as number) - mined);
          await sleep(Math.random() * pollIntervalMs);
        }

        // CPU window: full blocks, each with one deposit to an open payment (the 100 seeded first).
        await sleep(500);
        await service.stats('/reset');
        let outputs = 0;
        for (let b = 0; b < cpuBlocks; b++) {
          for (let t = 0; t < 4; t++) {
            const amounts: Record<string, string> = {};
            for (let o = 0; o < 50; o++) amounts[randomAddress()] = '0.00001';
            await node.wallet.call('sendmany', ['', amounts]);
            outputs += 50;
          }
          await node.send(addresses[b % addresses.length] as string, '0.001');
          outputs += 1;
          await sleep(pollIntervalMs * 2);
          const before = (await service.stats()).blocks;
          await node.mine(1);
          await service.waitFor((s) => s.blocks > before);
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
          outputsPerBlock: round(outputs / cpuBlocks, 1),
          rssMb: round(s.rss / 1048576, 1),
          peakRssMb: service.peakRssMb(),
        };
      });
      phases.push(phase);
    }
    return {
      pollIntervalMs,
      confirmations,
      phases,
      cpuRatio: cpuRatio(phases),
      note: 'LTC on litecoind 0.21 regtest (the BTC and DOGE code path). Latencies end when the payment changed in the store (its webhook event is in the outbox in the same transaction); they include up to one poll interval of waiting.',
    };
  });
}

runIfMain(import.meta.url, benchBitcoin);
