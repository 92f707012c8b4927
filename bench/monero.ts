import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { encodeAddress, hashToScalar, sandboxSubaddress, viewKeyHex } from '../core/addresses/monero.js';
import { setViewKey } from '../core/addresses/monero-keys.js';
import { startRatesServer } from '../core/chains/evm/testing/rates-server.js';
import { startMonerod } from '../core/chains/monero/testing/monerod.js';
import { systemClock } from '../core/clock.js';
import { freshStoreUrl } from '../server/testing/store.js';
import { seedLiveStore } from './live-seed.js';
import { runIfMain } from './standalone.js';
import { startTarget } from './target-process.js';

export interface MoneroPhase {
  openPayments: number;
  samples: number;
  /** transfer answered (the transaction is in monerod's pool) -> payment confirming in the store. */
  mempoolToConfirmingMs: { p50: number; p99: number; max: number };
  /** The block carrying the deposit is monerod's tip -> payment finished in the store (1 confirmation). */
  blockToFinishedMs: { p50: number; p99: number; max: number };
  /** Watcher CPU (user + system of the service process during syncs that processed blocks) per block. */
  cpuMsPerBlock: number;
  cpuMsPerBlockWithPolls: number;
  blocks: number;
  /** RingCT transactions per block in the CPU window (each scanned with the merchant's view key). */
  txPerBlock: number;
  rssMb: number;
}

export interface MoneroBench {
  pollIntervalMs: number;
  phases: MoneroPhase[];
  /** cpuMsPerBlock at the largest open count over the smallest (target within 1.2). */
  cpuRatio: number;
  note: string;
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
  return { p50: pct(50), p99: pct(99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

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
  const rates = await startRatesServer({ monero: 150 });
  const configFile = join(tmpdir(), `bench-xmr-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(
    configFile,
    JSON.stringify({ networks: { xmr: { rpcUrl: node.url, confirmations: 1, pollIntervalMs, timeoutMs: 10_000 } } }),
  );
  const phases: MoneroPhase[] = [];
  try {
    for (const open of openCounts) {
      const store = await freshStoreUrl();
      const G = ed25519.Point.BASE;
      const a = hashToScalar(randomBytes(32));
      const address = encodeAddress({
        net: 'main',
        kind: 'standard',
        spendPub: G.multiply(hashToScalar(randomBytes(32))).toBytes(),
        viewPub: G.multiply(a).toBytes(),
      });
      const { key } = await seedLiveStore(store.url, {
        register: async (db, merchantId) => {
          const r = await setViewKey(db, systemClock, merchantId, address, viewKeyHex(a));
          if (!r.ok) throw r.error;
        },
        open,
        asset: { payCurrency: 'XMR', network: 'xmr', decimals: 12, payAmountUnits: '200000000000', rate: '150' },
        randomAddress: () => sandboxSubaddress(randomBytes(32)),
      });
      const target = await startTarget('bench/evm-target.ts', {
        DATABASE_URL: store.url,
        CHAINS_CONFIG: configFile,
        RATES_BASE_URL: rates.url,
        MERCHANT_KEY: key,
        WATCH_NETWORK: 'xmr',
      });
      try {
        const api = `http://127.0.0.1:${target.info.port}`;
        const statsUrl = `http://127.0.0.1:${target.info.statsPort}`;
        type Stats = {
          cpuUs: number;
          busyCpuUs: number;
          blocks: number;
          rss: number;
          finishedAt: Record<string, number>;
          confirmingAt: Record<string, number>;
        };
        const stats = async (path = '/stats') => (await (await fetch(`${statsUrl}${path}`)).json()) as Stats;
        const waitFor = async (pred: (s: Stats) => boolean) => {
          const deadline = Date.now() + 60_000;
          for (;;) {
            const s = await stats();
            if (pred(s)) return s;
            if (Date.now() > deadline) throw new Error('the watcher did not catch up within 60 s');
            await sleep(5);
          }
        };
        const toConfirming: number[] = [];
        const toFinished: number[] = [];
        for (let i = 0; i < samples; i++) {
          const r = await fetch(`${api}/api/v1/payments`, {
            method: 'POST',
            headers: { 'x-api-key': String(target.info.key), 'content-type': 'application/json' },
            body: JSON.stringify({ amount: 30, currency: 'XMR', email: 'bench@example.com' }),
          });
          if (r.status !== 201) throw new Error(`POST /payments: ${r.status} ${await r.text()}`);
          const d = (
            (await r.json()) as { data: { payment: { payment_id: string }; blockchain: { pay_address: string } } }
          ).data;
          const id = d.payment.payment_id;
          const txid = await node.pay([{ address: d.blockchain.pay_address, amount: 200_000_000_000n }]);
          const sent = Date.now();
          toConfirming.push(
            ((await waitFor((s) => s.confirmingAt[id] !== undefined)).confirmingAt[id] as number) - sent,
          );
          await sleep(Math.random() * pollIntervalMs);
          await node.mineUntilIn(txid);
          const mined = Date.now();
          toFinished.push(((await waitFor((s) => s.finishedAt[id] !== undefined)).finishedAt[id] as number) - mined);
        }

        await sleep(500);
        await stats('/reset');
        let txs = 0;
        for (let b = 0; b < cpuBlocks; b++) {
          const ids: string[] = [];
          for (let t = 0; t < txPerBlock; t++)
            ids.push(await node.pay([{ address: sandboxSubaddress(randomBytes(32)), amount: 1_000_000n }]));
          txs += ids.length;
          await sleep(pollIntervalMs * 2);
          const before = (await stats()).blocks;
          for (const id of ids) await node.mineUntilIn(id);
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
          txPerBlock: round(txs / Math.max(1, s.blocks), 2),
          rssMb: round(s.rss / 1048576, 1),
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
    phases,
    cpuRatio: small && large ? round(large.cpuMsPerBlock / small.cpuMsPerBlock, 2) : Number.NaN,
    note: 'XMR on monerod 0.18 regtest, one merchant view key. Latencies end when the payment changed in the store; they include up to one poll interval.',
  };
}

runIfMain(import.meta.url, benchMonero);
