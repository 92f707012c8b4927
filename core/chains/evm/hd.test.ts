import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { decompressPublicKey, evmAddressAt, parseXpub } from './hd.js';

/** BIP39 seed, written out from the standard (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"), not a library. */
function bip39Seed(mnemonic: string): Uint8Array {
  return new Uint8Array(pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'));
}

const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
const anvilAccountXpub = () => HDKey.fromMasterSeed(bip39Seed(ANVIL_MNEMONIC)).derive("m/44'/60'/0'").publicExtendedKey;

// BIP32 test vector 1 (https://github.com/bitcoin/bips/blob/master/bip-0032.mediawiki#test-vector-1).
const V1_SEED = Uint8Array.from(Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex'));
const V1 = {
  m: 'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
  "m/0'":
    'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
  "m/0'/1":
    'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ',
  "m/0'/1/2'/2":
    'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
  "m/0'/1/2'/2/1000000000":
    'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
};

describe('BIP32 public derivation', () => {
  it('matches test vector 1, deriving the non-hardened steps from the xpub alone', () => {
    const master = HDKey.fromMasterSeed(V1_SEED);
    expect(master.publicExtendedKey).toBe(V1.m);
    expect(master.derive("m/0'").publicExtendedKey).toBe(V1["m/0'"]);
    // From here on only public keys: what the server does with a merchant's xpub.
    const fromPublic = (xpub: string) => {
      const r = parseXpub(xpub);
      if (!r.ok) throw r.error;
      return r.value;
    };
    expect(fromPublic(V1["m/0'"]).deriveChild(1).publicExtendedKey).toBe(V1["m/0'/1"]);
    const m0h12h = master.derive("m/0'/1/2'").publicExtendedKey;
    const m0h12h2 = fromPublic(m0h12h).deriveChild(2);
    expect(m0h12h2.publicExtendedKey).toBe(V1["m/0'/1/2'/2"]);
    expect(m0h12h2.deriveChild(1_000_000_000).publicExtendedKey).toBe(V1["m/0'/1/2'/2/1000000000"]);
  });

  it("gives anvil's default accounts for child 0/N of the account xpub m/44'/60'/0'", () => {
    const xpub = anvilAccountXpub();
    expect(xpub.startsWith('xpub')).toBe(true);
    expect(evmAddressAt(xpub, 0)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(evmAddressAt(xpub, 1)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(evmAddressAt(xpub, 2)).toBe('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
  });

  it('decompresses points to the coordinates the private key gives', () => {
    const node = HDKey.fromMasterSeed(bip39Seed(ANVIL_MNEMONIC)).derive("m/44'/60'/0'/0/7");
    const pub = node.publicKey as Uint8Array;
    // x is carried over; y must satisfy the curve with the parity bit of the compressed form.
    const full = decompressPublicKey(pub);
    expect(Buffer.from(full.subarray(1, 33)).equals(Buffer.from(pub.subarray(1)))).toBe(true);
    expect((full[64] as number) & 1).toBe((pub[0] as number) & 1);
    expect(() => decompressPublicKey(new Uint8Array(33))).toThrow(RangeError);
  });
});

describe('parseXpub', () => {
  it('refuses private keys without echoing them', () => {
    const xprv = HDKey.fromMasterSeed(V1_SEED).privateExtendedKey;
    const r = parseXpub(xprv);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(JSON.stringify(r.error.errors)).toMatch(/PRIVATE/);
    expect(JSON.stringify(r.error.errors)).not.toContain(xprv.slice(4, 20));
  });

  it('refuses garbage and a broken checksum', () => {
    expect(parseXpub('hello').ok).toBe(false);
    const good = V1.m;
    const bad = `${good.slice(0, -1)}${good.endsWith('8') ? '9' : '8'}`;
    expect(parseXpub(bad).ok).toBe(false);
  });

  it('refuses indexes that would be hardened or negative', () => {
    expect(() => evmAddressAt(anvilAccountXpub(), 2 ** 31)).toThrow(RangeError);
    expect(() => evmAddressAt(anvilAccountXpub(), -1)).toThrow(RangeError);
  });
});
