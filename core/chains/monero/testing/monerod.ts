import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../testing/free-port.js';
import { testNode } from '../../../testing/test-node.js';

/** Debian's monero package (scripts/ensure-monero.sh installs it): monerod and monero-wallet-rpc 0.18. */
export const MONEROD = process.env.MONEROD_PATH ?? '/usr/bin/monerod';
export const MONERO_WALLET_RPC = process.env.MONERO_WALLET_RPC_PATH ?? '/usr/bin/monero-wallet-rpc';

/** JSON-RPC 2.0 at `${url}/json_rpc` (monerod and monero-wallet-rpc alike); numbers in `raw` params stay exact. */
export async function moneroCall<T>(url: string, method: string, params: unknown = {}, raw?: string): Promise<T> {
  const body = raw ?? JSON.stringify(params);
  const res = await fetch(`${url}/json_rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"jsonrpc":"2.0","id":0,"method":"${method}","params":${body}}`,
    signal: AbortSignal.timeout(180_000),
  });
  const json = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (json.error) throw new Error(`${method}: ${json.error.message} (${json.error.code})`);
  return json.result as T;
}

async function other<T>(url: string, path: string, params: unknown): Promise<T> {
  const res = await fetch(`${url}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
    signal: AbortSignal.timeout(60_000),
  });
  return (await res.json()) as T;
}

export interface MoneroWallet {
  url: string;
  address: string;
  call<T>(method: string, params?: unknown, raw?: string): Promise<T>;
  stop(): Promise<void>;
}

/** A monero-wallet-rpc on a free port holding one wallet: a new one, or a view-only one from `keys`. */
async function startWallet(daemonUrl: string, keys?: { address: string; viewKey: string }): Promise<MoneroWallet> {
  const dir = mkdtempSync(join(tmpdir(), 'monero-wallet-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = testNode({
    command: MONERO_WALLET_RPC,
    args: [
      `--daemon-address=${daemonUrl.replace(/^http:\/\//, '')}`,
      `--rpc-bind-port=${port}`,
      '--rpc-bind-ip=127.0.0.1',
      '--disable-rpc-login',
      `--wallet-dir=${dir}`,
      '--non-interactive',
      '--trusted-daemon',
      '--log-level=0',
      `--log-file=${join(dir, 'wallet.log')}`,
    ],
    ready: () => moneroCall(url, 'get_version'),
    label: 'monero-wallet-rpc',
  });
  await proc.launch();
  const call = <T>(method: string, params?: unknown, raw?: string) => moneroCall<T>(url, method, params ?? {}, raw);
  try {
    if (keys) {
      await call('generate_from_keys', {
        filename: 'view',
        address: keys.address,
        viewkey: keys.viewKey,
        password: '',
      });
    } else await call('create_wallet', { filename: 'full', language: 'English' });
    const { address } = await call<{ address: string }>('get_address', { account_index: 0 });
    return {
      url,
      address,
      call,
      async stop() {
        await proc.halt();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await proc.halt();
    throw e;
  }
}

export interface Monerod {
  url: string;
  /** The full wallet that mines and pays (a customer). */
  payer: MoneroWallet;
  call<T>(method: string, params?: unknown): Promise<T>;
  height(): Promise<number>;
  /** Mines `count` blocks to the payer. */
  mine(count: number): Promise<void>;
  /** Mines one block at a time until `txid` is in one (monerod now and then leaves a fresh transaction out). */
  mineUntilIn(txid: string): Promise<number>;
  /** Pays exact piconero amounts in one transaction (one output per destination, plus change). */
  pay(destinations: readonly { address: string; amount: bigint }[]): Promise<string>;
  /** monerod's `/pop_blocks`: removes the top blocks; their transactions go back to the pool. */
  popBlocks(count: number): Promise<void>;
  /** Empties the pool (`flush_txpool`): its transactions are gone as if never sent. */
  flushPool(): Promise<void>;
  /**
   * A real double spend: one of the payer's spendable outputs swept whole to `address` in a transaction relayed to the
   * pool, and `replace()`, which flushes it from the pool and mines a transaction spending the same output back to the
   * payer. Returns the first transaction's id and its hex (monerod refuses it for good afterwards).
   */
  doubleSpend(address: string): Promise<{ txid: string; hex: string; replace(): Promise<string> }>;
  /** `/send_raw_transaction`: monerod's answer (`double_spend`, `status`). */
  sendRaw(hex: string): Promise<{ status: string; double_spend?: boolean }>;
  /** Whether `txid` is in the pool. */
  inPool(txid: string): Promise<boolean>;
  /** A view-only wallet-rpc from an address and view key (what a merchant restores on their side). */
  viewOnlyWallet(address: string, viewKey: string): Promise<MoneroWallet>;
  /**
   * Freezes the daemon (SIGSTOP): it takes connections but answers nothing, as a hung or overloaded node; `resume`
   * lets it go on (SIGCONT). Not a restart: `monerod --regtest` starts from a fresh chain every time it starts.
   */
  freeze(): void;
  resume(): void;
  stop(): Promise<void>;
}

/**
 * A real `monerod --regtest --offline` on free ports with a fresh data directory, and a full wallet-rpc that mines 200
 * blocks to itself first: coinbase unlocks after 60 blocks, and with barely more spendable outputs than the ring's 15
 * decoys' selection wants, transfers were seen to hang (the issue's probe). Difficulty 1: a block takes milliseconds.
 */
export async function startMonerod(): Promise<Monerod> {
  const dataDir = mkdtempSync(join(tmpdir(), 'monerod-'));
  const [rpcPort, p2pPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${rpcPort}`;
  const node = testNode({
    command: MONEROD,
    args: [
      '--regtest',
      '--offline',
      '--fixed-difficulty=1',
      '--non-interactive',
      '--no-zmq',
      '--no-igd',
      '--disable-dns-checkpoints',
      `--data-dir=${dataDir}`,
      `--rpc-bind-port=${rpcPort}`,
      '--rpc-bind-ip=127.0.0.1',
      `--p2p-bind-port=${p2pPort}`,
      '--p2p-bind-ip=127.0.0.1',
      '--log-level=0',
      `--log-file=${join(dataDir, 'monerod.log')}`,
    ],
    ready: () => moneroCall(url, 'get_info'),
    label: 'monerod',
  });
  await node.launch();
  const call = <T>(method: string, params?: unknown) => moneroCall<T>(url, method, params ?? {});
  let payer: MoneroWallet;
  try {
    payer = await startWallet(url);
  } catch (e) {
    await node.halt();
    throw e;
  }
  const m: Monerod = {
    url,
    payer,
    call,
    async height() {
      return (await call<{ count: number }>('get_block_count')).count - 1;
    },
    async mine(count) {
      await call('generateblocks', { amount_of_blocks: count, wallet_address: payer.address });
    },
    async mineUntilIn(txid) {
      for (let i = 0; i <= 20; i++) {
        const r = await other<{ txs?: { in_pool: boolean; block_height: number }[] }>(url, 'get_transactions', {
          txs_hashes: [txid],
        });
        const tx = r.txs?.[0];
        if (tx && !tx.in_pool) return tx.block_height;
        if (i < 20) await m.mine(1);
      }
      throw new Error(`${txid} not mined after 20 blocks`);
    },
    async pay(destinations) {
      await payer.call('refresh');
      const list = destinations.map((d) => `{"amount":${d.amount.toString()},"address":"${d.address}"}`).join(',');
      const r = await payer.call<{ tx_hash: string }>('transfer', undefined, `{"destinations":[${list}]}`);
      return r.tx_hash;
    },
    async popBlocks(count) {
      const r = await other<{ status: string }>(url, 'pop_blocks', { nblocks: count });
      if (r.status !== 'OK') throw new Error(`pop_blocks: ${r.status}`);
    },
    async flushPool() {
      await call('flush_txpool');
    },
    async doubleSpend(address) {
      await payer.call('refresh');
      const outs = await payer.call<{ transfers?: { key_image: string; unlocked: boolean; amount: number }[] }>(
        'incoming_transfers',
        { transfer_type: 'available' },
      );
      const spendable = (outs.transfers ?? []).filter((o) => o.unlocked && o.key_image);
      const out = spendable[spendable.length - 1];
      if (!out) throw new Error('no spendable output');
      const first = await payer.call<{ tx_hash: string; tx_blob: string }>('sweep_single', {
        address,
        key_image: out.key_image,
        do_not_relay: true,
        get_tx_hex: true,
      });
      const hex = first.tx_blob;
      const sent = await m.sendRaw(hex);
      if (sent.status !== 'OK') throw new Error(`send_raw_transaction: ${JSON.stringify(sent)}`);
      return {
        txid: first.tx_hash,
        hex,
        async replace() {
          await call('flush_txpool');
          const second = await payer.call<{ tx_hash: string }>('sweep_single', {
            address: payer.address,
            key_image: out.key_image,
          });
          const txid = second.tx_hash;
          await m.mineUntilIn(txid);
          return txid;
        },
      };
    },
    sendRaw: (hex) => other(url, 'send_raw_transaction', { tx_as_hex: hex, do_not_relay: false }),
    async inPool(txid) {
      const r = await other<{ tx_hashes?: string[] }>(url, 'get_transaction_pool_hashes', {});
      return (r.tx_hashes ?? []).includes(txid);
    },
    viewOnlyWallet: (address, viewKey) => startWallet(url, { address, viewKey }),
    freeze: () => node.child?.kill('SIGSTOP'),
    resume: () => node.child?.kill('SIGCONT'),
    async stop() {
      await payer.stop().catch(() => undefined);
      await node.halt();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await m.mine(200);
  } catch (e) {
    await m.stop();
    throw e;
  }
  return m;
}
