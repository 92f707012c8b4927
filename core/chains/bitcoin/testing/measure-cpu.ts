import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { BitcoinChain } from '../bitcoin-chain.js';
import { utxoAddressAt } from '../utxo.js';
import { startLitecoind } from './litecoind.js';

/*
 * CPU time of this process (not the node's) for the chain source's two hot paths, on a real litecoind -regtest:
 * blockAt on a block of ~200 transactions, and mempool() with ~200 pending transactions on the first poll (every
 * transaction fetched and decoded) and on the next ones (only the txid list). Run:
 *   npx tsx core/chains/bitcoin/testing/measure-cpu.ts [transactions=200] [rounds=20]
 */

const TXS = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 20);

function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const value = await run();
  return { value, cpu: cpuMs(cpu), wall: performance.now() - wall };
}

const node = await startLitecoind();
try {
  // One confirmed coin per transaction to come, so no send waits on another's change.
  const coins = [];
  for (let i = 0; i < TXS + 10; i++) coins.push({ address: await node.newAddress(), amount: '0.2' });
  await node.sendOutputs(coins);
  await node.mine(1);

  const tpub = HDKey.fromMasterSeed(randomBytes(32), { public: 0x043587cf, private: 0x04358394 }).derive(
    "m/84'/1'/0'",
  ).publicExtendedKey;
  for (let i = 0; i < TXS; i++) await node.send(utxoAddressAt(tpub, 'ltc', 'regtest', i), '0.01');

  const chain = new BitcoinChain({
    network: 'ltc',
    chain: 'regtest',
    rpcUrl: node.url,
    auth: { user: node.user, password: node.password },
    confirmations: 6,
    pollIntervalMs: 2000,
    timeoutMs: 60_000,
    nativeAsset: 'LTC',
    explorerUrl: null,
  });
  await chain.blockAt((await chain.head()).height);

  const first = await timed(() => chain.mempool());
  const again: { cpu: number; wall: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) again.push(await timed(() => chain.mempool()));
  const pending = await node.rpc.call<string[]>('getrawmempool');

  await node.mine(1);
  const height = (await chain.head()).height;
  await chain.blockAt(height); // warm-up: JIT, connection
  const blocks: { cpu: number; wall: number; transfers: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await timed(() => chain.blockAt(height));
    blocks.push({ cpu: r.cpu, wall: r.wall, transfers: r.value?.transfers.length ?? 0 });
  }
  const block = await node.rpc.call<{ nTx: number; size: number }>('getblock', [
    await node.rpc.call('getblockhash', [height]),
  ]);

  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(`mempool of ${pending.length} transactions (${first.value.length} matching outputs)`);
  console.log(`  first poll (fetch + decode all): cpu ${ms(first.cpu)}, wall ${ms(first.wall)}`);
  console.log(
    `  next polls (txid list only), median of ${ROUNDS}: cpu ${ms(median(again.map((r) => r.cpu)))}, wall ${ms(median(again.map((r) => r.wall)))}`,
  );
  console.log(
    `blockAt on a block of ${block.nTx} transactions, ${block.size} bytes, ${blocks[0]?.transfers} transfers`,
  );
  console.log(
    `  median of ${ROUNDS}: cpu ${ms(median(blocks.map((r) => r.cpu)))}, wall ${ms(median(blocks.map((r) => r.wall)))}`,
  );
} finally {
  await node.stop();
}
