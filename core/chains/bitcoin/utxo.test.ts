import { createHash, pbkdf2Sync } from 'node:crypto';
import { createBase58check, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { parseUtxoXpub, utxoAddressAt } from './utxo.js';
import {
  accountPath,
  type ExtendedKeyPrefix,
  extendedKeyVersions,
  type UtxoChain,
  type UtxoNet,
} from './utxo-params.js';
import { addressOfScript, keyHashAddress, outputScript } from './utxo-script.js';

/*
 * Every expected value below is published elsewhere, never computed by the code under test:
 * - BIP84 / SLIP-0132 (bitcoin/bips, satoshilabs/slips) and bip_utils' BIP84 tests (ebellocchia/bip_utils,
 *   tests/bip/bip84/test_bip84.py): account zpub/vpub and the first five receive addresses;
 * - BIP32 test vectors 1 and 2 (bitcoin/bips bip-0032.mediawiki) and their dgub forms in Dogecoin Core's
 *   src/test/bip32_tests.cpp; libdogecoin's test for the P2PKH address of vector 1's master key;
 * - the "abandon ... about" mnemonic's Litecoin m/84'/2'/0' and Dogecoin m/44'/3'/0' account xpubs and first
 *   addresses, as Trust Wallet Core, ACINQ's bitcoin-kmp and other wallets' tests publish them;
 * - BIP173's address / scriptPubKey pairs.
 */

/** An address's output script as hex, '' when the address is refused. */
function scriptHex(address: string, chain: UtxoChain, net: UtxoNet): string {
  const script = outputScript(address, chain, net);
  return script ? hex.encode(script) : '';
}

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);

/** The same key under other version bytes: how wallets "export as zpub / Ltub / dgub". */
function as(prefix: ExtendedKeyPrefix, key: string): string {
  const payload = base58check.decode(key);
  new DataView(payload.buffer, payload.byteOffset).setUint32(0, extendedKeyVersions[prefix], false);
  return base58check.encode(payload);
}

function parsed(text: string, chain: 'btc' | 'ltc' | 'doge', net: 'main' | 'test' | 'regtest' = 'main') {
  const r = parseUtxoXpub(text, chain, net);
  if (!r.ok) throw new Error(r.error.errors?.xpub?.[0] ?? r.error.message);
  return r.value;
}

function refusal(text: string, chain: 'btc' | 'ltc' | 'doge', net: 'main' | 'test' | 'regtest' = 'main'): string {
  const r = parseUtxoXpub(text, chain, net);
  if (r.ok) throw new Error('expected a refusal');
  expect(r.error.code).toBe('VALIDATION_FAILED');
  return r.error.errors?.xpub?.[0] ?? '';
}

/** BIP39 seed from the standard (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"), as core/chains/evm/hd.test.ts. */
const ABANDON_SEED = new Uint8Array(
  pbkdf2Sync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    'mnemonic',
    2048,
    64,
    'sha512',
  ),
);

const BIP84 = [
  {
    zpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
    addresses: [
      'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
      'bc1qp59yckz4ae5c4efgw2s5wfyvrz0ala7rgvuz8z',
      'bc1qgl5vlg0zdl7yvprgxj9fevsc6q6x5dmcyk3cn3',
      'bc1qm97vqzgj934vnaq9s53ynkyf9dgr05rargr04n',
    ],
  },
  {
    zpub: 'zpub6qjvNWwXNVMbZ4fC3XmS6MVEQz27RzB7NiiBPgMYX4bfBKa91GbHTSKL2zfkYdWcjQE9s2CG2Ze9S3f3ahK5k3mg4XEWZJEsS974XgDYmnr',
    addresses: [
      'bc1q553ay4mycq58yvzef86nes093feka2e0y3x29t',
      'bc1qcr0p0vq6gzqm23wrvkp2gl49czqx7lvlhs867n',
      'bc1qfsxj3tq7gmc7l0ejmt3z743d6z8czcvtwepz4a',
      'bc1q3xa5qtryj6pd9vzkmczhdqa53zxznu0dyl6ezw',
      'bc1q48ezuc263lwlrmf2lfjzknxeve7a79hqnu6s8w',
    ],
  },
];
const BIP84_TESTNET = {
  vpub: 'vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc',
  addresses: [
    'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl',
    'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97',
    'tb1qxdyjf6h5d6qxap4n2dap97q4j5ps6ua8sll0ct',
    'tb1qynpgs6wap6h9uvy7j0xlesew2w82qn038zm5km',
    'tb1q677973lw0w796gttpy52f296jqaaksz0555pg2',
  ],
};
/** "abandon ... about", m/84'/2'/0' and m/44'/3'/0' as xpub. */
const LTC_ACCOUNT =
  'xpub6CjGURuDpczf6uNrCCwfhVizn5J3hsWcvZ2m6GAdmAjZnoWJPrx6TFPjGSftc2o5fvox6ubQjSXmjjaHZjwYMH7SGFpHHb9Jg24zBf66mbE';
const LTC_ADDRESSES = ['ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', 'ltc1qwlezpr3890hcp6vva9twqh27mr6edadreqvhnn'];
const DOGE_ACCOUNT =
  'xpub6Bxse8AT19u9HExKtP1EAudLi9CpLxPpxDvanL2fFtM7UFE2Q7TTWRg4bnMnmT4KcyN6GQkSgZmPWDtyUywSii3MDpMNfXSTuzH7gvZywLU';
const DOGE_FIRST = 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC';

const V1_M0H1_2H =
  'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5';
const V1_M0H1_2H_DGUB =
  'dgub8sZzo9eyZMpVHMNHuyrNa2Wfgui23z8sPvxZxpbzq9H3QmLsUj1q3juwfTrLRMCVcyj8iMaGZpU2v319LrJZttkQnYvdUNzv33N6dcqeZ8X';
const V1_M0H1_2H_2 =
  'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV';
const V1_M0H1_2H_2_1E9 =
  'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy';
const V1_MASTER =
  'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
const V2_M0_2147483647H_1 =
  'xpub6DF8uhdarytz3FWdA8TvFSvvAh8dP3283MY7p2V4SeE2wyWmG5mg5EwVvmdMVCQcoNJxGoWaU9DCWh89LojfZ537wTfunKau47EL2dhHKon';
const V2_M0_2147483647H_1_DGUB =
  'dgub8skxVTgBQ5GQDVNzTRGsgYDqQzH8ScAe5ojePLVHks1mWAvECkJ2kJ2CHr8LsAp5o6pqihCt59R9XRSAuYPQYttfyA5RJbN1QhWwkCcvPdA';
const V2_MASTER =
  'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB';

describe('receive addresses from published vectors', () => {
  it('gives BIP84 receive addresses 0/0..0/4 from the account zpub', () => {
    for (const v of BIP84) {
      expect(v.addresses.map((_, i) => utxoAddressAt(v.zpub, 'btc', 'main', i))).toEqual(v.addresses);
    }
  });

  it('gives the BIP84 testnet receive addresses from a vpub', () => {
    const { vpub, addresses } = BIP84_TESTNET;
    expect(addresses.map((_, i) => utxoAddressAt(vpub, 'btc', 'test', i))).toEqual(addresses);
  });

  it('gives Litecoin BIP84 addresses (ltc1q...) from the account key as xpub, zpub or Ltub', () => {
    for (const form of [LTC_ACCOUNT, as('zpub', LTC_ACCOUNT), as('Ltub', LTC_ACCOUNT)]) {
      expect([0, 1].map((i) => utxoAddressAt(form, 'ltc', 'main', i))).toEqual(LTC_ADDRESSES);
    }
  });

  it('gives Dogecoin BIP44 P2PKH addresses (D...) from the account key as xpub or dgub', () => {
    expect(utxoAddressAt(DOGE_ACCOUNT, 'doge', 'main', 0)).toBe(DOGE_FIRST);
    expect(utxoAddressAt(as('dgub', DOGE_ACCOUNT), 'doge', 'main', 0)).toBe(DOGE_FIRST);
  });

  it('names the account path wallets export for each chain', () => {
    expect(accountPath('btc', 'main')).toBe("m/84'/0'/0'");
    expect(accountPath('ltc', 'main')).toBe("m/84'/2'/0'");
    expect(accountPath('doge', 'main')).toBe("m/44'/3'/0'");
    expect(accountPath('ltc', 'regtest')).toBe("m/84'/1'/0'");
    // The published account keys are these paths of the "abandon ... about" seed.
    const root = HDKey.fromMasterSeed(ABANDON_SEED);
    expect(root.derive(accountPath('ltc', 'main')).publicExtendedKey).toBe(LTC_ACCOUNT);
    expect(root.derive(accountPath('doge', 'main')).publicExtendedKey).toBe(DOGE_ACCOUNT);
    expect(parsed(BIP84[0]?.zpub ?? '', 'btc').xpub).toBe(root.derive(accountPath('btc', 'main')).publicExtendedKey);
  });

  it('encodes regtest and testnet prefixes for every chain from one tpub', () => {
    const tpub = HDKey.fromMasterSeed(ABANDON_SEED, { public: 0x043587cf, private: 0x04358394 }).derive(
      "m/84'/1'/0'",
    ).publicExtendedKey;
    expect(utxoAddressAt(tpub, 'btc', 'test', 0)).toBe(BIP84_TESTNET.addresses[0]);
    expect(utxoAddressAt(tpub, 'btc', 'regtest', 0)).toMatch(/^bcrt1q[02-9ac-hj-np-z]{38}$/);
    expect(utxoAddressAt(tpub, 'ltc', 'test', 0)).toMatch(/^tltc1q[02-9ac-hj-np-z]{38}$/);
    expect(utxoAddressAt(tpub, 'ltc', 'regtest', 0)).toMatch(/^rltc1q[02-9ac-hj-np-z]{38}$/);
    // Version 0x71 (Dogecoin testnet) renders as n...; 0x6f (regtest) as m... or n....
    expect(utxoAddressAt(tpub, 'doge', 'test', 0)).toMatch(/^n[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(utxoAddressAt(tpub, 'doge', 'regtest', 0)).toMatch(/^[mn][1-9A-HJ-NP-Za-km-z]{33}$/);
    // All of them pay the same key hash, so their scripts agree across chains of one kind.
    const segwit = ['btc', 'ltc'] as const;
    const scripts = segwit.map((c) => scriptHex(utxoAddressAt(tpub, c, 'regtest', 3), c, 'regtest'));
    expect(scripts[0]).toBe(scripts[1]);
  });
});

describe('BIP32 public derivation through the parsed key', () => {
  it("reads Dogecoin Core's dgub of vector 1 m/0H/1/2H as BIP32's xpub, and derives its public children", () => {
    const key = parsed(V1_M0H1_2H_DGUB, 'doge');
    expect(key.xpub).toBe(V1_M0H1_2H);
    expect(key.pastedAs).toBe('dgub');
    expect(key.key.privateKey).toBeNull();
    const child = key.key.deriveChild(2);
    expect(child.publicExtendedKey).toBe(V1_M0H1_2H_2);
    expect(child.deriveChild(1_000_000_000).publicExtendedKey).toBe(V1_M0H1_2H_2_1E9);
  });

  it('reads vector 2 m/0/2147483647H/1 in both forms and cannot derive its hardened child', () => {
    const fromXpub = parsed(V2_M0_2147483647H_1, 'doge');
    const fromDgub = parsed(V2_M0_2147483647H_1_DGUB, 'doge');
    expect(fromDgub.xpub).toBe(V2_M0_2147483647H_1);
    expect(fromXpub.xpub).toBe(V2_M0_2147483647H_1);
    expect(() => fromXpub.key.deriveChild(2147483646 + 0x8000_0000)).toThrow();
  });

  it("encodes vector 1's master key as the Dogecoin P2PKH address libdogecoin publishes", () => {
    const master = HDKey.fromExtendedKey(V1_MASTER);
    expect(keyHashAddress(master.identifier as Uint8Array, 'doge', 'main')).toBe('D9uQrqyJ7Guz3aHVTTcxVhNnthobME3o4w');
  });
});

describe('normalising the key to store', () => {
  it('stores one form for a key pasted as xpub, zpub or Ltub, so reuse is recognised', () => {
    const forms = [LTC_ACCOUNT, as('zpub', LTC_ACCOUNT), as('Ltub', LTC_ACCOUNT), `  ${LTC_ACCOUNT}\n`];
    const stored = forms.map((f) => parsed(f, 'ltc').xpub);
    expect(new Set(stored)).toEqual(new Set([LTC_ACCOUNT]));
    expect(parsed(as('Ltub', LTC_ACCOUNT), 'ltc').pastedAs).toBe('Ltub');
  });

  it('stores test-network keys as tpub whether pasted as vpub or tpub', () => {
    const stored = parsed(BIP84_TESTNET.vpub, 'btc', 'regtest').xpub;
    expect(stored.startsWith('tpub')).toBe(true);
    expect(parsed(stored, 'btc', 'test').xpub).toBe(stored);
    expect(utxoAddressAt(stored, 'btc', 'test', 4)).toBe(BIP84_TESTNET.addresses[4]);
  });
});

describe('refusing keys', () => {
  const root = HDKey.fromMasterSeed(ABANDON_SEED);
  const accountXprv = root.derive("m/84'/0'/0'").privateExtendedKey;
  const privateForms = ['xprv', 'zprv', 'yprv', 'tprv', 'vprv', 'uprv', 'Ltpv', 'Mtpv', 'ttpv', 'dgpv'] as const;

  it('refuses every private form without echoing any of it', () => {
    for (const prefix of privateForms) {
      const text = as(prefix, accountXprv);
      expect(text.startsWith(prefix)).toBe(true);
      for (const chain of ['btc', 'ltc', 'doge'] as const) {
        const message = refusal(text, chain, prefix.startsWith('t') || prefix.startsWith('v') ? 'test' : 'main');
        expect(message).toMatch(/PRIVATE/);
        for (let i = 4; i + 8 <= text.length; i += 8) expect(message).not.toContain(text.slice(i, i + 8));
      }
    }
  });

  it("refuses BIP84's published account zprv, and a private key with a typo, as private", () => {
    const zprv =
      'zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE';
    expect(refusal(zprv, 'btc')).toMatch(/PRIVATE/);
    expect(refusal(`${zprv.slice(0, 40)}x${zprv.slice(41)}`, 'btc')).toMatch(/PRIVATE/);
  });

  it('refuses P2SH-wrapped SegWit keys (ypub, upub, Mtub): their wallets watch other scripts', () => {
    expect(refusal(as('ypub', LTC_ACCOUNT), 'btc')).toMatch(/P2SH-wrapped.*zpub/);
    expect(refusal(as('upub', LTC_ACCOUNT), 'btc', 'test')).toMatch(/P2SH-wrapped/);
    expect(refusal(as('Mtub', LTC_ACCOUNT), 'ltc')).toMatch(/P2SH-wrapped.*Ltub/);
  });

  it("refuses another chain's or network's key forms", () => {
    expect(refusal(as('Ltub', LTC_ACCOUNT), 'btc')).toMatch(/Ltub key; Bitcoin mainnet takes .*xpub, zpub/);
    expect(refusal(as('dgub', DOGE_ACCOUNT), 'ltc')).toMatch(/dgub key/);
    expect(refusal(as('zpub', DOGE_ACCOUNT), 'doge')).toMatch(
      /zpub key; Dogecoin mainnet takes the account key of m\/44'\/3'\/0'/,
    );
    expect(refusal(LTC_ACCOUNT, 'ltc', 'regtest')).toMatch(/xpub key; Litecoin regtest takes .*tpub/);
    expect(refusal(BIP84_TESTNET.vpub, 'btc', 'main')).toMatch(/vpub key/);
  });

  it('refuses keys that are not at account depth: their addresses are not where the wallet looks', () => {
    expect(refusal(V1_MASTER, 'btc')).toMatch(/depth 0.*depth 3/);
    expect(refusal(V2_MASTER, 'doge')).toMatch(/depth 0/);
    expect(refusal(V1_M0H1_2H_2, 'btc')).toMatch(/depth 4/);
  });

  it('refuses text that is not an extended key', () => {
    expect(refusal('', 'btc')).toMatch(/Not a valid/);
    expect(refusal('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'btc')).toMatch(/Not a valid/);
    expect(refusal(`${LTC_ACCOUNT.slice(0, -1)}F`, 'ltc')).toMatch(/checksum/);
  });

  it('refuses an index outside the non-hardened range', () => {
    expect(() => utxoAddressAt(LTC_ACCOUNT, 'ltc', 'main', -1)).toThrow(RangeError);
    expect(() => utxoAddressAt(LTC_ACCOUNT, 'ltc', 'main', 2 ** 31)).toThrow(RangeError);
  });
});

describe('output scripts', () => {
  it("gives BIP173's scriptPubKey for its P2WPKH vector, in either case", () => {
    const script = '0014751e76e8199196d454941c45d1b3a323f1433bd6';
    for (const address of ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'])
      expect(scriptHex(address, 'btc', 'main')).toBe(script);
    expect(addressOfScript(script, 'btc', 'main')).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    expect(scriptHex('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'btc', 'test')).toBe(script);
  });

  it('round-trips every published receive address through its script', () => {
    const cases = [
      ...BIP84.flatMap((v) => v.addresses.map((a) => [a, 'btc', 'main'] as const)),
      ...BIP84_TESTNET.addresses.map((a) => [a, 'btc', 'test'] as const),
      ...LTC_ADDRESSES.map((a) => [a, 'ltc', 'main'] as const),
      [DOGE_FIRST, 'doge', 'main'] as const,
    ];
    for (const [address, chain, net] of cases) {
      const script = outputScript(address, chain, net);
      expect(script).not.toBeNull();
      expect(addressOfScript(hex.encode(script ?? new Uint8Array()), chain, net)).toBe(address);
    }
  });

  it('reads one P2WPKH script as the address of each chain and network', () => {
    const script = scriptHex('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'btc', 'main');
    expect(script).toBe('0014c0cebcd6c3d3ca8c75dc5ec62ebe55330ef910e2');
    expect(addressOfScript(script, 'btc', 'regtest')).toMatch(/^bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8z/);
    expect(addressOfScript(script, 'ltc', 'main')).toMatch(/^ltc1qcr8te4kr609gcawutmrza0j4xv80jy8z/);
    // Dogecoin pays key hashes with P2PKH only: a witness script is none of its addresses.
    expect(addressOfScript(script, 'doge', 'main')).toBeNull();
  });

  it("refuses scripts and addresses that are not the chain's receive kind", () => {
    // BIP173 P2WSH and BIP350 taproot vectors, a P2SH script, OP_RETURN, P2PKH on a SegWit chain.
    const p2wsh = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3';
    const taproot = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
    expect(outputScript(p2wsh, 'btc', 'main')).toBeNull();
    expect(outputScript(taproot, 'btc', 'main')).toBeNull();
    expect(outputScript('Bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'btc', 'main')).toBeNull();
    expect(outputScript('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', 'btc', 'main')).toBeNull();
    expect(outputScript('1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA', 'btc', 'main')).toBeNull();
    expect(outputScript('1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA', 'doge', 'main')).toBeNull();
    expect(outputScript(DOGE_FIRST, 'doge', 'test')).toBeNull();
    expect(addressOfScript(`a914${'00'.repeat(20)}87`, 'btc', 'main')).toBeNull();
    expect(addressOfScript(`5120${'00'.repeat(32)}`, 'btc', 'main')).toBeNull();
    expect(addressOfScript(`0020${'00'.repeat(32)}`, 'btc', 'main')).toBeNull();
    expect(addressOfScript(`6a24aa21a9ed${'00'.repeat(32)}`, 'ltc', 'main')).toBeNull();
    expect(addressOfScript(`76a914${'00'.repeat(20)}88ac`, 'ltc', 'main')).toBeNull();
    expect(addressOfScript(`0014${'zz'.repeat(20)}`, 'btc', 'main')).toBeNull();
  });
});
