import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { type Address, bytesToHex, getAddress, type Hex } from 'viem';
import {
  ANVIL_CHAIN_ID,
  ANVIL_FUNDED,
  ANVIL_FUNDED_2,
  ANVIL_FUNDED_3,
  compileTestToken,
  deployTestToken,
  startAnvil,
} from '../core/chains/evm/testing/anvil.js';
import { runIfMain } from './standalone.js';
import type { Summary, WatcherBench, WatcherPhase } from './watcher-driver.js';
import { cpuPerBlock, cpuRatio, round, sleep, summary, withChainBench, withWatchedService } from './watcher-driver.js';

export interface EvmPhase extends WatcherPhase {
  /** Block that gives the deposit its required confirmations, seen at the node -> payment finished in the store. */
  latencyMs: Summary;
  wallMsPerBlock: number;
  transfersPerBlock: number;
  peakRssMb: number;
}

export interface EvmBench extends WatcherBench<EvmPhase> {
  confirmations: number;
  /** Background sends the node refused (they are not in transfersPerBlock). */
  trafficErrors: number;
}

/**
 * Issue 5 benchmark. anvil mines a block every second; the service (own process, SQLite) watches it with a 250 ms
 * poll and 2 confirmations. Background traffic of native and ERC-20 transfers to strangers fills each block, and
 * paid payments give the latency samples. Run once with 100 and once with 100,000 open payments.
 */
export async function benchEvm(
  opts: { samples?: number; cpuBlocks?: number; openCounts?: number[] } = {},
): Promise<EvmBench> {
  const samples = opts.samples ?? 30;
  const cpuBlocks = opts.cpuBlocks ?? 40;
  const pollIntervalMs = 250;
  const confirmations = 2;
  const anvil = await startAnvil({ blockTimeSeconds: 1 });
  return withChainBench(anvil, { ethereum: 3000, tether: 1, 'usd-coin': 1 }, async ({ ratesUrl, config }) => {
    const phases: EvmPhase[] = [];
    const token = compileTestToken();
    const usdt = await deployTestToken(anvil, token, 'USDT');
    const usdc = await deployTestToken(anvil, token, 'USDC');
    const configFile = config({
      eth: {
        rpcUrl: anvil.url,
        chainId: ANVIL_CHAIN_ID,
        confirmations,
        pollIntervalMs,
        tokens: { USDTERC20: usdt, USDCERC20: usdc },
      },
    });
    const xpub = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'").publicExtendedKey;

    // When each block was first seen at the node, polled every 5 ms (so latencies read up to 5 ms long, never short).
    const firstSeen = new Map<number, number>();
    let watching = true;
    const blockWatch = (async () => {
      while (watching) {
        const h = Number(await anvil.public.getBlockNumber().catch(() => -1n));
        if (h >= 0 && !firstSeen.has(h)) firstSeen.set(h, Date.now());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    // Strangers' transfers: 10 native + 10 ERC-20 per second, so every block has work that matches nothing, plus
    // (while `hits` is set) one small deposit to an open payment, so every block also changes a payment.
    let traffic = true;
    let sentTraffic = 0;
    let hits: Address[] = [];
    let trafficErrors = 0;
    // A failed send (a node hiccup) is counted, never fatal: the figures say how much traffic really went out.
    const send = async (f: () => Promise<unknown>) => {
      try {
        await f();
        sentTraffic += 1;
      } catch {
        trafficErrors += 1;
      }
    };
    const trafficLoop = (async () => {
      while (traffic) {
        // One sender per stream, each sending in sequence: concurrent sends from one account would race for nonces.
        await Promise.all([
          (async () => {
            for (let i = 0; i < 10; i++) {
              await send(() =>
                anvil.wallet.sendTransaction({
                  to: getAddress(bytesToHex(randomBytes(20))),
                  value: 1n,
                  account: ANVIL_FUNDED_2,
                  chain: null,
                }),
              );
            }
            const hit = hits[sentTraffic % Math.max(1, hits.length)];
            if (hit)
              await send(() =>
                anvil.wallet.sendTransaction({ to: hit, value: 1000n, account: ANVIL_FUNDED_2, chain: null }),
              );
          })(),
          (async () => {
            for (let i = 0; i < 10; i++) {
              const to = getAddress(bytesToHex(randomBytes(20)));
              await send(() =>
                anvil.wallet.writeContract({
                  address: usdt,
                  abi: token.abi,
                  functionName: 'transfer',
                  args: [to, 1n],
                  account: ANVIL_FUNDED,
                  chain: null,
                }),
              );
            }
          })(),
        ]);
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();

    for (const open of opts.openCounts ?? [100, 100_000]) {
      const seed = {
        chain: 'evm' as const,
        xpub,
        open,
        asset: { payCurrency: 'ETH', network: 'eth', decimals: 18, payAmountUnits: '10000000000000000', rate: '3000' },
        randomAddress: () => getAddress(bytesToHex(randomBytes(20))),
      };
      const env = { CHAINS_CONFIG: configFile, RATES_BASE_URL: ratesUrl };
      const phase = await withWatchedService(seed, env, async (service, seeded) => {
        // Warm-up: let the watcher catch up with a few blocks before counting.
        const h0 = Number(await anvil.public.getBlockNumber());
        while (Number(await anvil.public.getBlockNumber()) < h0 + 3) await sleep(100);

        const paid: { id: string; tx: Hex }[] = [];
        for (let i = 0; i < samples; i++) {
          const { id, address } = await service.createPayment('ETH');
          const tx = await anvil.wallet.sendTransaction({
            to: address as Address,
            value: 10n ** 16n,
            account: ANVIL_FUNDED_3,
            chain: null,
          });
          paid.push({ id, tx });
          await sleep(1000);
        }
        let s = await service.waitFor((st) => paid.every((p) => st.finishedAt[p.id] !== undefined), 60_000);
        const latencies: number[] = [];
        for (const p of paid) {
          const receipt = await anvil.public.getTransactionReceipt({ hash: p.tx });
          const confirmingBlock = Number(receipt.blockNumber) + confirmations - 1;
          const seen = firstSeen.get(confirmingBlock);
          const done = s.finishedAt[p.id];
          if (seen !== undefined && done !== undefined) latencies.push(done - seen);
        }

        // CPU window: only the background traffic (and the service's own timers) runs while the watcher is measured.
        hits = seeded.addresses as Address[];
        const hWait = Number(await anvil.public.getBlockNumber());
        while (Number(await anvil.public.getBlockNumber()) < hWait + 2) await sleep(100);
        await service.stats('/reset');
        const trafficBefore = sentTraffic;
        const hStart = Number(await anvil.public.getBlockNumber());
        while (Number(await anvil.public.getBlockNumber()) < hStart + cpuBlocks) await sleep(200);
        await sleep(500);
        s = await service.stats();
        const hEnd = Number(await anvil.public.getBlockNumber());
        hits = [];
        return {
          openPayments: open,
          samples: latencies.length,
          latencyMs: summary(latencies),
          ...cpuPerBlock(s),
          wallMsPerBlock: round(s.busyWallMs / Math.max(1, s.blocks), 2),
          blocks: s.blocks,
          transfersPerBlock: round((sentTraffic - trafficBefore) / Math.max(1, hEnd - hStart), 1),
          rssMb: round(s.rss / 1048576, 1),
          peakRssMb: service.peakRssMb(),
        };
      });
      phases.push(phase);
    }
    traffic = false;
    watching = false;
    await Promise.all([trafficLoop, blockWatch]);
    return {
      pollIntervalMs,
      confirmations,
      phases,
      cpuRatio: cpuRatio(phases),
      trafficErrors,
      note: 'Latency ends when the payment is finished in the store (its webhook event is in the outbox in the same transaction); live-mode webhooks cannot reach a loopback receiver by design (SSRF guard), so delivery time is in the webhooks benchmark.',
    };
  });
}

runIfMain(import.meta.url, benchEvm);
