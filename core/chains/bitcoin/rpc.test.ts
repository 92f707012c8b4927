import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountUnits } from './exact-json.js';
import { BitcoinRpc, RpcError } from './rpc.js';
import { type Litecoind, startLitecoind } from './testing/litecoind.js';

/*
 * The JSON-RPC client against a real litecoind -regtest (one per file): exact amounts from the node's own JSON, and
 * failures that say what went wrong without the URL, the user or the password.
 */

let node: Litecoind;
beforeAll(async () => {
  node = await startLitecoind();
});
afterAll(async () => {
  await node?.stop();
});

interface RawTx {
  vout: { n: number; value: string; scriptPubKey: { hex: string } }[];
}

function expectClean(message: string, secrets: string[]) {
  for (const s of secrets) expect(message).not.toContain(s);
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
}

describe('amounts', () => {
  it("reads a node transaction's 0.1 and 0.2 LTC and 1 litoshi outputs as exact base units", async () => {
    const a = await node.newAddress();
    const b = await node.newAddress('legacy');
    const { txid, indexes } = await node.sendOutputs([
      { address: a, amount: '0.1' },
      { address: a, amount: '0.2' },
      { address: b, amount: '0.00000001' },
      { address: b, amount: '0.29' },
    ]);
    const tx = await node.rpc.call<RawTx>('getrawtransaction', [txid, true]);
    const units = indexes.map((i) => amountUnits(tx.vout.find((v) => v.n === i)?.value));
    expect(units).toEqual([10_000_000n, 20_000_000n, 1n, 29_000_000n]);
    expect((units[0] ?? 0n) + (units[1] ?? 0n)).toBe(30_000_000n);
    // The node wrote bare JSON numbers; a double would have made these 0.30000000000000004 and 28999999.999999996.
    expect(tx.vout.find((v) => v.n === indexes[3])?.value).toBe('0.29000000');
  });

  it('reads amounts near the coin supply exactly', async () => {
    const a = await node.newAddress();
    const raw = await node.rpc.call<string>('createrawtransaction', [
      [],
      [{ [a]: '20999999.99999999' }, { [node.minerAddress]: '83999999.99999999' }],
    ]);
    const tx = await node.rpc.call<RawTx>('decoderawtransaction', [raw]);
    expect(tx.vout.map((v) => amountUnits(v.value))).toEqual([2_099_999_999_999_999n, 8_399_999_999_999_999n]);
  });
});

describe('calls', () => {
  it('batches calls, each answered or refused on its own', async () => {
    const [count, missing] = await node.rpc.batch([
      { method: 'getblockcount' },
      { method: 'getblockhash', params: [1_000_000] },
    ]);
    expect(count).toEqual({ ok: true, value: expect.any(Number) });
    expect(missing?.ok).toBe(false);
    if (missing?.ok === false) expect(missing.error.code).toBe(-8);
  });

  it("rejects with the node's error code and message when the node refuses a call", async () => {
    const e = await failure(node.rpc.call('getblockhash', [1_000_000]));
    expect(e).toBeInstanceOf(RpcError);
    expect((e as RpcError).code).toBe(-8);
    expect(e.message).toBe('RPC of litecoind: getblockhash: Block height out of range (-8)');
  });
});

describe('failures without credentials', () => {
  it('says authentication failed, without the user, the password or the URL', async () => {
    const rpc = new BitcoinRpc({
      url: `${node.url}/`,
      auth: { user: node.user, password: 'hunter2-wrong' },
      label: 'ltc',
    });
    const e = await failure(rpc.call('getblockcount'));
    expect(e.message).toBe('RPC of ltc: getblockcount: authentication failed (HTTP 401), check rpcUser/rpcPassword');
    expectClean(e.message, [node.user, 'hunter2-wrong', node.url, String(node.port)]);
  });

  it('says the node cannot be reached, without the host, port or path', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/apikey-s3cr3t`;
    const rpc = new BitcoinRpc({ url, auth: { user: 'alice', password: 'pw-s3cr3t' }, label: 'ltc' });
    const e = await failure(rpc.call('getblockchaininfo'));
    expect(e.message).toBe('RPC of ltc: getblockchaininfo: cannot reach the node (ECONNREFUSED)');
    expectClean(e.message, ['alice', 'pw-s3cr3t', 'apikey', String(port), '127.0.0.1']);
  });

  it('times out on a node that accepts and never answers', async () => {
    const hung = await hangingServer();
    try {
      const rpc = new BitcoinRpc({
        url: hung.url,
        auth: { user: 'alice', password: 'pw-s3cr3t' },
        timeoutMs: 300,
        label: 'ltc',
      });
      const started = Date.now();
      const e = await failure(rpc.call('getblockchaininfo'));
      expect(e.message).toBe('RPC of ltc: getblockchaininfo: timed out after 300 ms');
      expect(Date.now() - started).toBeLessThan(3000);
      expectClean(e.message, ['alice', 'pw-s3cr3t', String(hung.port)]);
    } finally {
      await hung.close();
    }
  });

  it('refuses a URL carrying credentials without echoing them', () => {
    expect(() => new BitcoinRpc({ url: 'http://bob:pw-s3cr3t@127.0.0.1:1/', auth: { cookieFile: '/x' } })).toThrow(
      'RPC of bitcoin: put credentials in rpcUser/rpcPassword, not in the URL',
    );
  });
});

describe('cookie file', () => {
  it('signs in with the cookie and reads it again after the node restarts with a new one', async () => {
    const rpc = new BitcoinRpc({ url: node.url, auth: { cookieFile: node.cookieFile }, label: 'ltc' });
    const before = await rpc.call<number>('getblockcount');
    const { readFileSync } = await import('node:fs');
    const oldCookie = readFileSync(node.cookieFile, 'utf8');
    await node.restart();
    expect(readFileSync(node.cookieFile, 'utf8')).not.toBe(oldCookie);
    expect(await rpc.call<number>('getblockcount')).toBe(before);
  });

  it('says the cookie file cannot be read, naming the reason only', async () => {
    const rpc = new BitcoinRpc({
      url: node.url,
      auth: { cookieFile: `${node.datadir}/missing/.cookie` },
      label: 'ltc',
    });
    const e = await failure(rpc.call('getblockcount'));
    expect(e.message).toBe('RPC of ltc: getblockcount: cannot read the cookie file (ENOENT)');
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  return typeof address === 'object' && address ? address.port : 0;
}

async function hangingServer(): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
