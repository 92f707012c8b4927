import type { ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromUnits } from '../../../money/decimal.js';
import { freePort } from '../../../testing/free-port.js';
import { testNode } from '../../../testing/test-node.js';
import { amountUnits } from '../exact-json.js';
import { BitcoinRpc, RpcError } from '../rpc.js';

/** Debian's Litecoin Core (scripts/ensure-litecoind.sh installs it). */
export const LITECOIND = process.env.LITECOIND_PATH ?? '/usr/bin/litecoind';
const WALLET = 'harness';
/**
 * Litecoin Core 0.21's regtest activates MWEB at height 432, after which generatetoaddress fails
 * ("bad-txns-vin-empty": the block would need a HogEx with a peg-in). Tests stay below it.
 */
export const MAX_REGTEST_HEIGHT = 431;

export interface Litecoind {
  /** RPC base URL (no credentials). */
  url: string;
  port: number;
  datadir: string;
  user: string;
  password: string;
  /** The node writes it at each start, with a new password: `__cookie__:<hex>`. */
  cookieFile: string;
  /** Node-level RPC with the harness's credentials. */
  rpc: BitcoinRpc;
  /** RPC of the harness's wallet (`/wallet/harness`). */
  wallet: BitcoinRpc;
  /** The harness's own address that mined blocks pay. */
  minerAddress: string;
  process(): ChildProcess | null;
  /** Mines `count` blocks to the harness's address; returns their hashes. */
  mine(count: number): Promise<string[]>;
  newAddress(type?: 'bech32' | 'legacy' | 'p2sh-segwit'): Promise<string>;
  /** sendtoaddress, amount as exact decimal text; BIP125-replaceable when asked. */
  send(address: string, amount: string, opts?: { replaceable?: boolean }): Promise<string>;
  /**
   * One transaction with these outputs in this order, the same address as often as given (createrawtransaction
   * refuses duplicates, so duplicates go in as stand-in addresses whose scripts are swapped before funding), funded
   * and signed by the wallet. Returns the txid and each requested output's index.
   */
  sendOutputs(
    outputs: readonly { address: string; amount: string }[],
    opts?: { replaceable?: boolean },
  ): Promise<{ txid: string; indexes: number[] }>;
  /** bumpfee: replaces a replaceable wallet transaction with one paying more fee. Returns the new txid. */
  bumpFee(txid: string): Promise<string>;
  /** A transaction spending the same inputs as `txid`, everything to `address` minus a higher fee. Returns its txid. */
  doubleSpend(txid: string, address: string): Promise<string>;
  /** The output script (hex) the node gives an address: the independent check of our encoders. */
  scriptOf(address: string): Promise<string>;
  invalidateBlock(hash: string): Promise<void>;
  /** Stops the daemon and starts it again on the same data directory and port (the chain and wallet survive). */
  restart(): Promise<void>;
  /** Stops the daemon, leaving the data directory for `restart`. */
  halt(): Promise<void>;
  /** Stops the daemon and deletes its data directory. */
  stop(): Promise<void>;
}

/** Bitcoin Core's share/rpcauth/rpcauth.py: `user:salt$HMAC-SHA256(key=salt, password)`. */
function rpcauth(user: string, password: string): string {
  const salt = randomBytes(16).toString('hex');
  return `${user}:${salt}$${createHmac('sha256', salt).update(password).digest('hex')}`;
}

/**
 * Starts a real `litecoind -regtest` on a free port with a fresh data directory, waits for its RPC, loads a wallet and
 * mines 101 blocks so the wallet can spend (regtest coinbase matures after 100 blocks). Password access goes through
 * `-rpcauth`, so the node still writes its cookie file and both ways of signing in can be tested on one node. Nothing
 * listens beyond 127.0.0.1 and no peer is ever contacted.
 *
 * @example
 * const node = await startLitecoind();
 * try { await node.send(await node.newAddress(), '0.1'); await node.mine(1); } finally { await node.stop(); }
 */
export async function startLitecoind(opts: { fund?: boolean } = {}): Promise<Litecoind> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts);
    } catch (e) {
      // Another process took the free port between our probe and the node's bind: try another one.
      if (attempt >= 3 || !/Unable to (bind|start HTTP server)/i.test((e as Error).message)) throw e;
    }
  }
}

async function startOnce(opts: { fund?: boolean }): Promise<Litecoind> {
  const datadir = mkdtempSync(join(tmpdir(), 'litecoind-'));
  const port = await freePort();
  const user = `u${randomBytes(4).toString('hex')}`;
  const password = randomBytes(18).toString('base64url');
  const url = `http://127.0.0.1:${port}`;
  const auth = { user, password };
  const rpc = new BitcoinRpc({ url, auth, label: 'litecoind', timeoutMs: 60_000 });
  const wallet = new BitcoinRpc({ url: `${url}/wallet/${WALLET}`, auth, label: 'litecoind', timeoutMs: 60_000 });
  const args = [
    '-regtest',
    `-datadir=${datadir}`,
    `-rpcport=${port}`,
    '-rpcbind=127.0.0.1',
    '-rpcallowip=127.0.0.1',
    `-rpcauth=${rpcauth(user, password)}`,
    '-server=1',
    '-listen=0',
    '-connect=0',
    '-dnsseed=0',
    '-discover=0',
    '-listenonion=0',
    '-upnp=0',
    '-debug=0',
    '-printtoconsole=0',
    '-nodebuglogfile',
    '-fallbackfee=0.0002',
    '-mempoolreplacement=1',
    '-txindex=1',
    // Regtest checks the whole mempool after every transaction by default: quadratic when a test sends hundreds.
    '-checkmempool=0',
    '-rpcworkqueue=64',
    // Shutdown waits for every open HTTP connection, and fetch keeps idle ones 4 s: the node closes them after 1 s.
    // (A long call is not cut: the timeout counts idle time on the connection, not the call's.)
    '-rpcservertimeout=1',
    // Lets a test pay 1 satoshi: the dust rule is relay policy, and exact amounts down to one unit are what we prove.
    '-dustrelayfee=0',
  ];
  const daemon = testNode({
    command: LITECOIND,
    args,
    label: 'litecoind',
    // Not listening yet, or -28 "Loading block index" while it warms up.
    ready: () => rpc.call('getblockchaininfo'),
    pollMs: 100,
  });
  const launch = () => daemon.launch();
  const halt = () => daemon.halt();

  const loadWallet = async () => {
    try {
      await rpc.call('loadwallet', [WALLET]);
    } catch (e) {
      // -18: no such wallet yet (first start); -35: already loaded.
      if (!(e instanceof RpcError)) throw e;
      if (e.code === -18) await rpc.call('createwallet', [WALLET]);
      else if (e.code !== -35) throw e;
    }
  };

  let minerAddress: string;
  try {
    await launch();
    await loadWallet();
    minerAddress = await wallet.call<string>('getnewaddress', ['', 'bech32']);
  } catch (e) {
    await halt();
    rmSync(datadir, { recursive: true, force: true });
    throw e;
  }
  const mine = async (count: number) => {
    const height = await rpc.call<number>('getblockcount');
    if (height + count > MAX_REGTEST_HEIGHT)
      throw new Error(`mining to ${height + count} would pass height ${MAX_REGTEST_HEIGHT}, where MWEB activates`);
    return rpc.call<string[]>('generatetoaddress', [count, minerAddress]);
  };
  const scriptOf = async (address: string) =>
    (await rpc.call<{ scriptPubKey: string }>('validateaddress', [address])).scriptPubKey;

  const signAndSend = async (rawHex: string, replaceable: boolean) => {
    const funded = await wallet.call<{ hex: string }>('fundrawtransaction', [rawHex, { replaceable }]);
    const signed = await wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [funded.hex]);
    if (!signed.complete) throw new Error('the wallet could not sign the transaction');
    return rpc.call<string>('sendrawtransaction', [signed.hex]);
  };

  const node: Litecoind = {
    url,
    port,
    datadir,
    user,
    password,
    cookieFile: join(datadir, 'regtest', '.cookie'),
    rpc,
    wallet,
    minerAddress,
    process: () => daemon.child,
    mine,
    newAddress: (type = 'bech32') => wallet.call<string>('getnewaddress', ['', type]),
    // Bitcoin Core takes amounts as strings too (AmountFromValue parses the text): no float on the way in either.
    send: (address, amount, o = {}) =>
      wallet.call<string>('sendtoaddress', { address, amount, replaceable: o.replaceable ?? false }),
    async sendOutputs(outputs, o = {}) {
      const used = new Set<string>();
      const swaps: { from: string; to: string }[] = [];
      const rawOutputs: Record<string, string>[] = [];
      for (const out of outputs) {
        let address = out.address;
        if (used.has(address)) {
          const script = await scriptOf(out.address);
          // A stand-in of the same script length, so the output's length prefix stays right after the swap.
          const standIn = await node.newAddress(script.startsWith('0014') ? 'bech32' : 'legacy');
          swaps.push({ from: await scriptOf(standIn), to: script });
          address = standIn;
        }
        used.add(address);
        rawOutputs.push({ [address]: out.amount });
      }
      let raw = await rpc.call<string>('createrawtransaction', [[], rawOutputs]);
      for (const s of swaps) {
        if (s.from.length !== s.to.length || !raw.includes(s.from)) throw new Error('cannot swap the stand-in script');
        raw = raw.replace(s.from, s.to);
      }
      const txid = await signAndSend(raw, o.replaceable ?? false);
      // fundrawtransaction may insert the change anywhere: find ours by script and amount, each once.
      const tx = await rpc.call<{ vout: { n: number; value: string; scriptPubKey: { hex: string } }[] }>(
        'getrawtransaction',
        [txid, true],
      );
      const taken = new Set<number>();
      const indexes: number[] = [];
      for (const out of outputs) {
        const script = await scriptOf(out.address);
        const units = amountUnits(out.amount);
        const match = tx.vout.find(
          (v) => !taken.has(v.n) && v.scriptPubKey.hex === script && amountUnits(v.value) === units,
        );
        if (!match) throw new Error('an output is missing from the sent transaction');
        taken.add(match.n);
        indexes.push(match.n);
      }
      return { txid, indexes };
    },
    async bumpFee(txid) {
      return (await wallet.call<{ txid: string }>('bumpfee', [txid])).txid;
    },
    async doubleSpend(txid, address) {
      const tx = await rpc.call<{ vin: { txid: string; vout: number }[]; vout: { value: string }[] }>(
        'getrawtransaction',
        [txid, true],
      );
      let spent = 0n;
      for (const input of tx.vin) {
        const prev = await rpc.call<{ vout: { n: number; value: string }[] }>('getrawtransaction', [input.txid, true]);
        const out = prev.vout.find((v) => v.n === input.vout);
        if (!out) throw new Error('the spent output is missing');
        spent += amountUnits(out.value);
      }
      const paid = tx.vout.reduce((sum, v) => sum + amountUnits(v.value), 0n);
      // BIP125: the replacement pays more in absolute fee and feerate; 0.001 more covers both at these sizes.
      const fee = spent - paid + 100_000n;
      const inputs = tx.vin.map((v) => ({ txid: v.txid, vout: v.vout, sequence: 0xfffffffd }));
      const raw = await rpc.call<string>('createrawtransaction', [inputs, [{ [address]: fromUnits(spent - fee, 8) }]]);
      const signed = await wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [raw]);
      if (!signed.complete) throw new Error('the wallet could not sign the double spend');
      return rpc.call<string>('sendrawtransaction', [signed.hex]);
    },
    scriptOf,
    async invalidateBlock(hash) {
      await rpc.call('invalidateblock', [hash]);
    },
    async restart() {
      await halt();
      await launch();
      await loadWallet();
    },
    halt,
    async stop() {
      await halt();
      rmSync(datadir, { recursive: true, force: true });
    },
  };

  if (opts.fund ?? true) {
    try {
      await mine(101);
    } catch (e) {
      await node.stop();
      throw e;
    }
  }
  return node;
}
