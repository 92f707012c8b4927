import { randomBytes } from 'node:crypto';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Litecoind, startLitecoind } from './testing/litecoind.js';
import { parseUtxoXpub, utxoAddressAt } from './utxo.js';
import type { UtxoChain, UtxoNet } from './utxo-params.js';
import { outputScript } from './utxo-script.js';

/*
 * An independent implementation checks ours: Litecoin Core's descriptor engine derives the same receive children
 * (`wpkh(tpub/0/*)` for BIP84, `pkh(tpub/0/*)` for BIP44) from a fresh random account key, and its own address
 * decoder gives the output scripts compared with ours. No wallet, no blocks: a bare regtest node.
 */

/** An address's output script as hex, '' when the address is refused. */
function scriptHex(address: string, chain: UtxoChain, net: UtxoNet): string {
  const script = outputScript(address, chain, net);
  return script ? hex.encode(script) : '';
}

const TEST_VERSIONS = { public: 0x043587cf, private: 0x04358394 };
const COUNT = 5;

let node: Litecoind;
beforeAll(async () => {
  node = await startLitecoind({ fund: false });
});
afterAll(async () => {
  await node?.stop();
});

/** The node's addresses for a descriptor's children 0..COUNT-1, with its checksum from getdescriptorinfo. */
async function nodeDerives(descriptor: string): Promise<string[]> {
  const info = await node.rpc.call<{ checksum: string }>('getdescriptorinfo', [descriptor]);
  return node.rpc.call<string[]>('deriveaddresses', [`${descriptor}#${info.checksum}`, [0, COUNT - 1]]);
}

function accountKey(path: string): string {
  return HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS).derive(path).publicExtendedKey;
}

const indexes = [...Array(COUNT).keys()];

describe('derivation checked by litecoind', () => {
  it('gives the rltc1q... addresses litecoind derives from wpkh(tpub/0/*)', async () => {
    const tpub = accountKey("m/84'/1'/0'");
    const ours = indexes.map((i) => utxoAddressAt(tpub, 'ltc', 'regtest', i));
    expect(ours).toEqual(await nodeDerives(`wpkh(${tpub}/0/*)`));
  });

  it('gives BTC regtest bcrt1q... addresses with the scripts of the rltc1q... ones litecoind derives', async () => {
    const tpub = accountKey("m/84'/1'/0'");
    const theirs = await nodeDerives(`wpkh(${tpub}/0/*)`);
    for (const i of indexes) {
      const ours = utxoAddressAt(tpub, 'btc', 'regtest', i);
      expect(ours.startsWith('bcrt1q')).toBe(true);
      expect(scriptHex(ours, 'btc', 'regtest')).toBe(await node.scriptOf(theirs[i] ?? ''));
    }
  });

  it('gives DOGE regtest P2PKH addresses equal to what litecoind derives from pkh(tpub/0/*) (same version byte 0x6f)', async () => {
    const tpub = accountKey("m/44'/1'/0'");
    const theirs = await nodeDerives(`pkh(${tpub}/0/*)`);
    const ours = indexes.map((i) => utxoAddressAt(tpub, 'doge', 'regtest', i));
    expect(ours).toEqual(theirs);
    for (const i of indexes)
      expect(scriptHex(ours[i] ?? '', 'doge', 'regtest')).toBe(await node.scriptOf(theirs[i] ?? ''));
  });

  it('derives the same addresses from a vpub as litecoind from its tpub form', async () => {
    const tpub = accountKey("m/84'/1'/0'");
    const parsed = parseUtxoXpub(tpub, 'ltc', 'regtest');
    if (!parsed.ok) throw parsed.error;
    // Re-serialised under the vpub version by the BIP32 library itself, as a wallet exporting "vpub" would.
    const vpub = HDKey.fromExtendedKey(tpub, TEST_VERSIONS);
    const asVpub = new HDKey({
      versions: { public: 0x045f1cf6, private: 0x045f18bc },
      depth: vpub.depth,
      index: vpub.index,
      parentFingerprint: vpub.parentFingerprint,
      chainCode: vpub.chainCode as Uint8Array,
      publicKey: vpub.publicKey as Uint8Array,
    }).publicExtendedKey;
    expect(asVpub.startsWith('vpub')).toBe(true);
    expect(indexes.map((i) => utxoAddressAt(asVpub, 'ltc', 'regtest', i))).toEqual(
      await nodeDerives(`wpkh(${parsed.value.xpub}/0/*)`),
    );
  });
});
