import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRatesServer } from '../core/chains/evm/testing/rates-server.js';
import { freshStoreUrl } from '../server/testing/store.js';
import { seedLiveStore } from './live-seed.js';
import { startTarget } from './target-process.js';

/**
 * The watcher benchmarks' common driver (EVM, Bitcoin family, Monero): per open-payment count, a fresh store seeded
 * outside the service (so its memory reflects serving, not bulk loading), the service in its own process
 * (bench/evm-target.ts, which reports what its watcher did on a stats port), and the helpers every phase uses.
 */

/** What bench/evm-target.ts reports about its watcher since the last reset. */
export interface WatcherStats {
  syncs: number;
  busySyncs: number;
  /** Watcher CPU (user + system of the service process during its syncs), in microseconds. */
  cpuUs: number;
  /** The same, counting only syncs that processed blocks. */
  busyCpuUs: number;
  busyWallMs: number;
  blocks: number;
  rss: number;
  /** Payment id -> when it became finished / confirming in the store (ms since the epoch). */
  finishedAt: Record<string, number>;
  confirmingAt: Record<string, number>;
}

export interface WatchedService {
  /** Base URL of the service. */
  api: string;
  /** Peak resident memory of the service process so far (VmHWM), in MB. */
  peakRssMb(): number;
  stats(path?: '/stats' | '/reset'): Promise<WatcherStats>;
  /** Polls the stats every 5 ms until `pred` holds; throws after `timeoutMs`. */
  waitFor(pred: (s: WatcherStats) => boolean, timeoutMs?: number): Promise<WatcherStats>;
  /** Creates a payment of `amount` USD in `currency` over HTTP with the seeded merchant's key. */
  createPayment(currency: string, amount?: number): Promise<{ id: string; address: string }>;
}

export type SeedOptions = Parameters<typeof seedLiveStore>[1];

export interface Summary {
  p50: number;
  p99: number;
  max: number;
}

/** What every chain's watcher bench reports of one phase (a count of open payments). */
export interface WatcherPhase {
  openPayments: number;
  samples: number;
  /** Watcher CPU (user + system of the service process during its syncs) per block, counting syncs that processed blocks. */
  cpuMsPerBlock: number;
  /** The same, plus the polls in between (all watcher CPU / blocks). */
  cpuMsPerBlockWithPolls: number;
  blocks: number;
  rssMb: number;
}

/** A chain's watcher bench: its phases and the CPU ratio of the largest open count over the smallest (floor 1.2). */
export interface WatcherBench<P extends WatcherPhase> {
  pollIntervalMs: number;
  phases: P[];
  /** cpuMsPerBlock at the largest open count over that at the smallest (target within 1.2). */
  cpuRatio: number;
  note: string;
}

export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Nearest-rank percentile of an ascending list (NaN when empty). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export function summary(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

/** Watcher CPU per block from a stats snapshot: syncs that processed blocks, and everything including idle polls. */
export function cpuPerBlock(s: WatcherStats): { cpuMsPerBlock: number; cpuMsPerBlockWithPolls: number } {
  const blocks = Math.max(1, s.blocks);
  return {
    cpuMsPerBlock: round(s.busyCpuUs / 1000 / blocks, 3),
    cpuMsPerBlockWithPolls: round(s.cpuUs / 1000 / blocks, 3),
  };
}

/** cpuMsPerBlock of the last (largest) phase over the first (target within 1.2: cost does not grow with payments). */
export function cpuRatio(phases: readonly { cpuMsPerBlock: number }[]): number {
  const small = phases[0];
  const large = phases[phases.length - 1];
  return small && large ? round(large.cpuMsPerBlock / small.cpuMsPerBlock, 2) : Number.NaN;
}

/**
 * A chain's bench around its started node: the rates stand-in quoting `prices`, and a CHAINS_CONFIG file that `run`
 * writes with `config(networks)`. The node, the rates server and the file are gone after `run`, whatever it did.
 */
export async function withChainBench<T>(
  node: { stop(): Promise<void> },
  prices: Record<string, number>,
  run: (world: { ratesUrl: string; config(networks: object): string }) => Promise<T>,
): Promise<T> {
  const rates = await startRatesServer(prices).catch(async (e) => {
    await node.stop();
    throw e;
  });
  const configFile = join(tmpdir(), `bench-chains-${randomBytes(4).toString('hex')}.json`);
  const config = (networks: object) => {
    writeFileSync(configFile, JSON.stringify({ networks }));
    return configFile;
  };
  try {
    return await run({ ratesUrl: rates.url, config });
  } finally {
    await node.stop();
    await rates.close();
    rmSync(configFile, { force: true });
  }
}

/**
 * One phase: seeds a fresh store with `open` payments nobody pays, starts the service watching `env.WATCH_NETWORK`
 * (or every configured network), runs `measure`, then stops the service and drops the store.
 */
export async function withWatchedService<T>(
  seed: SeedOptions,
  env: { CHAINS_CONFIG: string; RATES_BASE_URL: string; WATCH_NETWORK?: string },
  measure: (service: WatchedService, seeded: { addresses: string[] }) => Promise<T>,
): Promise<T> {
  const store = await freshStoreUrl();
  try {
    const { key, addresses } = await seedLiveStore(store.url, seed);
    const target = await startTarget('bench/evm-target.ts', { DATABASE_URL: store.url, MERCHANT_KEY: key, ...env });
    try {
      const api = `http://127.0.0.1:${target.info.port}`;
      const statsUrl = `http://127.0.0.1:${target.info.statsPort}`;
      const stats = async (path = '/stats') => (await (await fetch(`${statsUrl}${path}`)).json()) as WatcherStats;
      const service: WatchedService = {
        api,
        peakRssMb: () => target.peakRssMb(),
        stats,
        async waitFor(pred, timeoutMs = 30_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const s = await stats();
            if (pred(s)) return s;
            if (Date.now() > deadline) throw new Error(`the watcher did not catch up within ${timeoutMs / 1000} s`);
            await sleep(5);
          }
        },
        async createPayment(currency, amount = 30) {
          const r = await fetch(`${api}/api/v1/payments`, {
            method: 'POST',
            headers: { 'x-api-key': String(target.info.key), 'content-type': 'application/json' },
            body: JSON.stringify({ amount, currency, email: 'bench@example.com' }),
          });
          if (r.status !== 201) throw new Error(`POST /payments: ${r.status} ${await r.text()}`);
          const d = (
            (await r.json()) as { data: { payment: { payment_id: string }; blockchain: { pay_address: string } } }
          ).data;
          return { id: d.payment.payment_id, address: d.blockchain.pay_address };
        },
      };
      return await measure(service, { addresses });
    } finally {
      await target.stop();
    }
  } finally {
    await store.dispose();
  }
}
