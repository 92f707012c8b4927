import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { MAX_REGTEST_HEIGHT, startLitecoind } from '../core/chains/bitcoin/testing/litecoind.js';
import { startRatesServer } from '../core/chains/evm/testing/rates-server.js';
import { freshStoreUrl } from '../server/testing/store.js';
import { seedLiveStore } from './live-seed.js';
import { runIfMain } from './standalone.js';
import { startTarget } from './target-process.js';

export interface BitcoinPhase {
  openPayments: number;
  samples: number;
  /** sendtoaddress answered (the transaction is in the node's mempool) -> payment confirming in the store. */
  mempoolToConfirmingMs: { p50: number; p99: number; max: number };
  /** generatetoaddress answered (the block is the node's tip) -> payment finished in the store (1 confirmation). */
  blockToFinishedMs: { p50: number; p99: number; max: number };
  /** Watcher CPU (user + system of the service process during its syncs) per block, counting syncs that processed blocks. */
  cpuMsPerBlock: number;
  /** The same, plus the mempool polls in between (all watcher CPU / blocks). */
  cpuMsPerBlockWithPolls: number;
  blocks: number;
  /** Matching-kind (P2WPKH) outputs per block, nearly all to strangers. */
  outputsPerBlock: number;
  rssMb: number;
  peakRssMb: number;
}

export interface BitcoinBench {
  pollIntervalMs: number;
  confirmations: number;
  phases: BitcoinPhase[];
  /** cpuMsPerBlock at 100,000 open payments over that at 100 (target within 1.2). */
  cpuRatio: number;
  note: string;
}

const TEST_VERSIONS = { private: 0x04358394, public: 0x043587cf };

/** A random Litecoin regtest P2WPKH address: a stranger's, or an open payment's that nobody pays. */
function randomAddress(): string {
  return bech32.encode('rltc', [0, ...bech32.toWords(randomBytes(20))]);
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted[sorted.length - 1] ?? Number.NaN };
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
  const rates = await startRatesServer({ litecoin: 100 });
  const configFile = join(tmpdir(), `bench-chains-${randomBytes(4).toString('hex')}.json`);
  const phases: BitcoinPhase[] = [];
  try {
    // Regtest stops at MWEB's activation height: every block this benchmark mines must fit below it.
    const need = openCounts.length * (samples + cpuBlocks + 4);
    const height = await node.rpc.call<number>('getblockcount');
    if (height + need > MAX_REGTEST_HEIGHT) throw new Error(`needs ${need} blocks, regtest has room for fewer`);
    writeFileSync(
      configFile,
      JSON.stringify({
        networks: {
          ltc: { rpcUrl: node.url, cookieFile: node.cookieFile, chain: 'regtest', confirmations, pollIntervalMs },
        },
      }),
    );
    for (const open of openCounts) {
      const store = await freshStoreUrl();
      const xpub = HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS).derive("m/84'/1'/0'").publicExtendedKey;
      // Set-up happens here, not in the service's process, so its memory reflects serving, not bulk loading.
      const { key, addresses } = await seedLiveStore(store.url, {
        chain: 'ltc',
        xpub,
        net: 'regtest',
        open,
        asset: { payCurrency: 'LTC', network: 'ltc', decimals: 8, payAmountUnits: '30000000', rate: '100' },
        randomAddress,
      });
      const target = await startTarget('bench/evm-target.ts', {
        DATABASE_URL: store.url,
        CHAINS_CONFIG: configFile,
        RATES_BASE_URL: rates.url,
        MERCHANT_KEY: key,
        WATCH_NETWORK: 'ltc',
      });
      try {
        const api = `http://127.0.0.1:${target.info.port}`;
        const statsUrl = `http://127.0.0.1:${target.info.statsPort}`;
        type Stats = {
          syncs: number;
          cpuUs: number;
          busyCpuUs: number;
          blocks: number;
          rss: number;
          finishedAt: Record<string, number>;
          confirmingAt: Record<string, number>;
        };
        const stats = async (path = '/stats') => (await (await fetch(`${statsUrl}${path}`)).json()) as Stats;
        const waitFor = async (pred: (s: Stats) => boolean) => {
          const deadline = Date.now() + 30_000;
          for (;;) {
            const s = await stats();
            if (pred(s)) return s;
            if (Date.now() > deadline) throw new Error('the watcher did not catch up within 30 s');
            await sleep(5);
          }
        };

        const toConfirming: number[] = [];
        const toFinished: number[] = [];
        for (let i = 0; i < samples; i++) {
          const r = await fetch(`${api}/api/v1/payments`, {
            method: 'POST',
            headers: { 'x-api-key': String(target.info.key), 'content-type': 'application/json' },
            body: JSON.stringify({ amount: 30, currency: 'LTC', email: 'bench@example.com' }),
          });
          if (r.status !== 201) throw new Error(`POST /payments: ${r.status} ${await r.text()}`);
          const d = (
            (await r.json()) as { data: { payment: { payment_id: string }; blockchain: { pay_address: string } } }
          ).data;
          const id = d.payment.payment_id;
          await node.send(d.blockchain.pay_address, '0.3');
          const sent = Date.now();
          toConfirming.push(
            ((await waitFor((s) => s.confirmingAt[id] !== undefined)).confirmingAt[id] as number) - sent,
          );
          // Sends and blocks fall at every phase of the poll interval across samples (not just after a poll).
          await sleep(Math.random() * pollIntervalMs);
          await node.mine(1);
          const mined = Date.now();
          toFinished.push(((await waitFor((s) => s.finishedAt[id] !== undefined)).finishedAt[id] as number) - mined);
          await sleep(Math.random() * pollIntervalMs);
        }

        // CPU window: full blocks, each with one deposit to an open payment (the 100 seeded first).
        await sleep(500);
        await stats('/reset');
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
          const before = (await stats()).blocks;
          await node.mine(1);
          await waitFor((s) => s.blocks > before);
        }
        await sleep(pollIntervalMs * 2);
        const s = await stats();
        phases.push({
          openPayments: open,
          samples,
          mempoolToConfirmingMs: summary(toConfirming),
          blockToFinishedMs: summary(toFinished),
          cpuMsPerBlock: round(s.busyCpuUs / 1000 / Math.max(1, s.blocks), 3),
          cpuMsPerBlockWithPolls: round(s.cpuUs / 1000 / Math.max(1, s.blocks), 3),
          blocks: s.blocks,
          outputsPerBlock: round(outputs / cpuBlocks, 1),
          rssMb: round(s.rss / 1048576, 1),
          peakRssMb: target.peakRssMb(),
        });
      } finally {
        await target.stop();
        await store.dispose();
      }
    }
  } finally {
    await node.stop();
    await rates.close();
    rmSync(configFile, { force: true });
  }
  const small = phases[0];
  const large = phases[phases.length - 1];
  return {
    pollIntervalMs,
    confirmations,
    phases,
    cpuRatio: small && large ? round(large.cpuMsPerBlock / small.cpuMsPerBlock, 2) : Number.NaN,
    note: 'LTC on litecoind 0.21 regtest (the BTC and DOGE code path). Latencies end when the payment changed in the store (its webhook event is in the outbox in the same transaction); they include up to one poll interval of waiting.',
  };
}

runIfMain(import.meta.url, benchBitcoin);
