import { randomBytes } from 'node:crypto';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainTransfer } from '../types.js';
import { BitcoinChain, type BitcoinChainOptions, MAX_NODE_LAG } from './bitcoin-chain.js';
import { type BitcoinNetworkConfig, defaultConfirmations, utxoNativeAsset } from './config.js';
import { BitcoinRpc } from './rpc.js';
import { type Litecoind, startLitecoind } from './testing/litecoind.js';
import { utxoAddressAt } from './utxo.js';
import type { UtxoChain } from './utxo-params.js';
import { addressOfScript, outputScript } from './utxo-script.js';

/*
 * The chain source against a real litecoind -regtest shared by this file. Payments' addresses come from a random
 * account key, as the allocator derives them; the harness wallet pays them. BTC and DOGE sources read the same node:
 * their addresses have the scripts of Litecoin regtest ones (bcrt1q... <-> rltc1q..., and DOGE regtest P2PKH is
 * Litecoin regtest P2PKH, version 0x6f, character for character).
 */

let node: Litecoind;
const tpub84 = HDKey.fromMasterSeed(randomBytes(32), { public: 0x043587cf, private: 0x04358394 }).derive(
  "m/84'/1'/0'",
).publicExtendedKey;
const tpub44 = HDKey.fromMasterSeed(randomBytes(32), { public: 0x043587cf, private: 0x04358394 }).derive(
  "m/44'/1'/0'",
).publicExtendedKey;
let nextIndex = 0;

beforeAll(async () => {
  node = await startLitecoind();
});
afterAll(async () => {
  await node?.stop();
});

function config(network: UtxoChain, over: Partial<BitcoinNetworkConfig> = {}): BitcoinNetworkConfig {
  return {
    network,
    chain: 'regtest',
    rpcUrl: node.url,
    auth: { user: node.user, password: node.password },
    confirmations: defaultConfirmations[network],
    pollIntervalMs: 100,
    timeoutMs: 10_000,
    nativeAsset: utxoNativeAsset[network],
    explorerUrl: null,
    ...over,
  };
}

function source(network: UtxoChain, opts: BitcoinChainOptions = {}, over: Partial<BitcoinNetworkConfig> = {}) {
  return new BitcoinChain(config(network, over), opts);
}

/** A fresh payment address of a chain, and the Litecoin regtest address with its script, which the wallet can pay. */
function paymentAddress(network: UtxoChain): { address: string; payTo: string } {
  const index = nextIndex++;
  const address = utxoAddressAt(network === 'doge' ? tpub44 : tpub84, network, 'regtest', index);
  const script = outputScript(address, network, 'regtest');
  if (!script) throw new Error('no script');
  const payTo = addressOfScript(hex.encode(script), network === 'doge' ? 'doge' : 'ltc', 'regtest');
  if (!payTo) throw new Error('no Litecoin twin');
  return { address, payTo };
}

function to(transfers: ChainTransfer[], address: string): ChainTransfer[] {
  return transfers.filter((t) => t.to === address);
}

async function tipBlock(chain: BitcoinChain) {
  const head = await chain.head();
  const block = await chain.blockAt(head.height);
  if (!block) throw new Error('no block at the tip');
  return block;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
}

describe('probe and head', () => {
  it("gives the node's tip, and the tip as a fresh watcher's start", async () => {
    const ltc = source('ltc');
    const info = await node.rpc.call<{ blocks: number; bestblockhash: string }>('getblockchaininfo');
    expect(await ltc.probe()).toEqual({ height: info.blocks, hash: info.bestblockhash });
    expect(await ltc.startHeight()).toBe(info.blocks);
    expect(ltc.key).toBe('live:ltc');
    expect(ltc.mode).toBe('live');
    expect(ltc.requiredConfirmations).toBe(6);
  });

  it('refuses a node serving another chain than configured, without the URL or credentials', async () => {
    const e = await failure(source('btc', {}, { chain: 'main' }).probe());
    expect(e.message).toBe('RPC of btc serves chain "regtest", configured "main"');
    for (const secret of [node.password, node.user, node.url]) expect(e.message).not.toContain(secret);
  });

  it('treats a node behind a stored checkpoint as lagging, and one far behind as reset', async () => {
    const tip = (await node.rpc.call<number>('getblockcount')) as number;
    const behind = source('ltc', { checkpointHeight: async () => tip + 3 });
    expect((await failure(behind.head())).message).toBe(
      `RPC of ltc is behind: tip ${tip}, the chain had reached ${tip + 3}`,
    );
    const reset = source('ltc', { checkpointHeight: async () => tip + MAX_NODE_LAG + 1 });
    expect((await reset.head()).height).toBe(tip);
  });
});

describe('blocks', () => {
  it('reports two outputs to one address in one transaction as two transfers, and one transaction paying two addresses', async () => {
    const a = paymentAddress('ltc');
    const b = paymentAddress('ltc');
    const c = paymentAddress('ltc');
    const first = await node.sendOutputs([
      { address: a.payTo, amount: '0.1' },
      { address: a.payTo, amount: '0.2' },
    ]);
    const second = await node.sendOutputs([
      { address: b.payTo, amount: '1.23456789' },
      { address: c.payTo, amount: '0.00000001' },
    ]);
    const [hash] = await node.mine(1);
    const ltc = source('ltc');
    const block = await tipBlock(ltc);
    expect(block.hash).toBe(hash);

    const toA = to(block.transfers, a.address);
    expect(toA).toEqual([
      {
        txid: first.txid,
        index: first.indexes[0],
        to: a.address,
        extraId: null,
        asset: 'LTC',
        amountUnits: 10_000_000n,
      },
      {
        txid: first.txid,
        index: first.indexes[1],
        to: a.address,
        extraId: null,
        asset: 'LTC',
        amountUnits: 20_000_000n,
      },
    ]);
    expect(toA[0]?.index).not.toBe(toA[1]?.index);
    expect(to(block.transfers, b.address)).toEqual([
      {
        txid: second.txid,
        index: second.indexes[0],
        to: b.address,
        extraId: null,
        asset: 'LTC',
        amountUnits: 123_456_789n,
      },
    ]);
    expect(to(block.transfers, c.address).map((t) => [t.txid, t.index, t.amountUnits])).toEqual([
      [second.txid, second.indexes[1], 1n],
    ]);

    const header = await node.rpc.call<{ time: number; previousblockhash: string; height: number }>('getblock', [hash]);
    expect(block.height).toBe(header.height);
    expect(block.parentHash).toBe(header.previousblockhash);
    expect(block.timestamp).toBe(header.time * 1000);
  });

  it('skips outputs to scripts none of our addresses use (P2SH, OP_RETURN, P2PKH on a SegWit chain)', async () => {
    const p2sh = await node.newAddress('p2sh-segwit');
    const legacy = await node.newAddress('legacy');
    const sent = await node.sendOutputs([
      { address: p2sh, amount: '0.5' },
      { address: legacy, amount: '0.25' },
    ]);
    await node.mine(1);
    const ltcBlock = await tipBlock(source('ltc'));
    const ours = ltcBlock.transfers.filter((t) => t.txid === sent.txid).map((t) => t.index);
    expect(ours).not.toContain(sent.indexes[0]);
    expect(ours).not.toContain(sent.indexes[1]);
    // The coinbase's witness commitment (OP_RETURN) is no transfer either; its payout to a P2WPKH address is.
    const coinbase = (await node.rpc.call<{ tx: string[] }>('getblock', [ltcBlock.hash])).tx[0];
    expect(ltcBlock.transfers.filter((t) => t.txid === coinbase).map((t) => t.to)).toEqual([node.minerAddress]);
    // The same block through the Dogecoin source: only the P2PKH output.
    const dogeBlock = await tipBlock(source('doge'));
    expect(dogeBlock.transfers.filter((t) => t.txid === sent.txid).map((t) => [t.index, t.to])).toEqual([
      [sent.indexes[1], legacy],
    ]);
  });

  it('has no block or hash above the tip', async () => {
    const ltc = source('ltc');
    const tip = (await ltc.head()).height;
    expect(await ltc.blockAt(tip + 1)).toBeNull();
    expect(await ltc.blockHash(tip + 1)).toBeNull();
    expect(await ltc.blockHash(-1)).toBeNull();
  });

  it('gives another hash at a height once invalidateblock and a longer chain replace the block', async () => {
    const a = paymentAddress('ltc');
    const txid = await node.send(a.payTo, '0.3');
    const [replaced] = await node.mine(1);
    const ltc = source('ltc');
    const height = (await ltc.head()).height;
    expect(await ltc.blockHash(height)).toBe(replaced);
    expect(to((await ltc.blockAt(height))?.transfers ?? [], a.address).map((t) => t.txid)).toEqual([txid]);

    await node.invalidateBlock(replaced as string);
    // A node one block shorter than the tip already seen is lagging until it is back at that height.
    expect((await failure(ltc.head())).message).toMatch(/is behind/);
    // Mined to another address, so the new block cannot be the invalidated one again.
    await node.rpc.call('generatetoaddress', [2, await node.newAddress()]);
    expect((await ltc.head()).height).toBe(height + 1);
    const now = await ltc.blockHash(height);
    expect(now).not.toBeNull();
    expect(now).not.toBe(replaced);
    // The transaction went back to the mempool and into the new chain.
    const again = await ltc.blockAt(height);
    expect(to(again?.transfers ?? [], a.address).map((t) => [t.txid, t.amountUnits])).toEqual([[txid, 30_000_000n]]);
  });
});

describe('mempool', () => {
  it('shows an unconfirmed transaction, then only what is new costs a request', async () => {
    let requests = 0;
    const rpc = new BitcoinRpc({
      url: node.url,
      auth: { user: node.user, password: node.password },
      label: 'ltc',
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    });
    const ltc = source('ltc', { rpc });
    await tipBlock(ltc);
    const a = paymentAddress('ltc');
    const txid = await node.send(a.payTo, '0.07');
    requests = 0;
    expect(to(await ltc.mempool(), a.address)).toEqual([
      { txid, index: expect.any(Number), to: a.address, extraId: null, asset: 'LTC', amountUnits: 7_000_000n },
    ]);
    // getrawmempool + getbestblockhash in one batch, getrawtransaction for the new one(s) in another.
    expect(requests).toBe(2);
    requests = 0;
    expect(to(await ltc.mempool(), a.address).map((t) => t.txid)).toEqual([txid]);
    expect(requests).toBe(1);

    await node.mine(1);
    await tipBlock(ltc);
    expect(to(await ltc.mempool(), a.address)).toEqual([]);
  });

  it('keeps a mined transaction in the view until the watcher has read its block', async () => {
    const ltc = source('ltc');
    await tipBlock(ltc);
    const a = paymentAddress('ltc');
    const txid = await node.send(a.payTo, '0.4');
    expect(to(await ltc.mempool(), a.address).map((t) => t.txid)).toEqual([txid]);
    await node.mine(1);
    // The node's mempool no longer has it, but the watcher has not applied the block: no "removed" flicker.
    expect(to(await ltc.mempool(), a.address).map((t) => t.txid)).toEqual([txid]);
    const block = await tipBlock(ltc);
    expect(to(block.transfers, a.address).map((t) => t.txid)).toEqual([txid]);
    expect(to(await ltc.mempool(), a.address)).toEqual([]);
  });

  it('drops a transaction replaced by bumpfee and shows its replacement, without a block', async () => {
    const ltc = source('ltc');
    await tipBlock(ltc);
    const a = paymentAddress('ltc');
    const original = await node.send(a.payTo, '0.5', { replaceable: true });
    expect(to(await ltc.mempool(), a.address).map((t) => t.txid)).toEqual([original]);
    const bumped = await node.bumpFee(original);
    expect(bumped).not.toBe(original);
    expect(to(await ltc.mempool(), a.address).map((t) => [t.txid, t.amountUnits])).toEqual([[bumped, 50_000_000n]]);
  });

  it('drops a deposit whose transaction a double spend replaced', async () => {
    const ltc = source('ltc');
    await tipBlock(ltc);
    const a = paymentAddress('ltc');
    const thief = paymentAddress('ltc');
    const original = await node.send(a.payTo, '0.6', { replaceable: true });
    expect(to(await ltc.mempool(), a.address).map((t) => t.txid)).toEqual([original]);
    const conflict = await node.doubleSpend(original, thief.payTo);
    const view = await ltc.mempool();
    expect(to(view, a.address)).toEqual([]);
    expect(to(view, thief.address).map((t) => t.txid)).toEqual([conflict]);
    await node.mine(1);
  });
});

describe('BTC and DOGE sources on the Litecoin node, matched by script', () => {
  it('reports payments to our bcrt1q... and DOGE regtest addresses when the same scripts are paid', async () => {
    const btcPay = paymentAddress('btc');
    const dogePay = paymentAddress('doge');
    expect(btcPay.address).toMatch(/^bcrt1q/);
    expect(btcPay.payTo).toMatch(/^rltc1q/);
    // Dogecoin and Litecoin regtest share the P2PKH version byte: the very same text.
    expect(dogePay.payTo).toBe(dogePay.address);
    const btc = source('btc');
    const doge = source('doge');
    await tipBlock(btc);
    await tipBlock(doge);
    const sent = await node.sendOutputs([
      { address: btcPay.payTo, amount: '0.015' },
      { address: dogePay.payTo, amount: '42.00000001' },
    ]);
    expect(to(await btc.mempool(), btcPay.address)).toEqual([
      {
        txid: sent.txid,
        index: sent.indexes[0],
        to: btcPay.address,
        extraId: null,
        asset: 'BTC',
        amountUnits: 1_500_000n,
      },
    ]);
    expect(to(await doge.mempool(), dogePay.address)).toEqual([
      {
        txid: sent.txid,
        index: sent.indexes[1],
        to: dogePay.address,
        extraId: null,
        asset: 'DOGE',
        amountUnits: 4_200_000_001n,
      },
    ]);
    await node.mine(1);
    expect(to((await tipBlock(btc)).transfers, btcPay.address).map((t) => [t.index, t.amountUnits])).toEqual([
      [sent.indexes[0], 1_500_000n],
    ]);
    const dogeBlock = await tipBlock(doge);
    expect(to(dogeBlock.transfers, dogePay.address).map((t) => [t.index, t.asset, t.amountUnits])).toEqual([
      [sent.indexes[1], 'DOGE', 4_200_000_001n],
    ]);
    // No rltc1q... string ever reaches the BTC source's transfers.
    expect((await tipBlock(btc)).transfers.every((t) => t.to.startsWith('bcrt1q'))).toBe(true);
  });
});
