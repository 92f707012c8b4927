import { createHash, randomBytes } from 'node:crypto';
import { base58, base58xrp, bech32, createBase58check } from '@scure/base';
import { isAddress, keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { createCatalog, isValidAddress } from '../../catalog/catalog.js';
import type { Asset } from '../../catalog/types.js';
import { decodeAddress } from '../monero/monero.js';
import { sandboxAddress, sandboxDestinationTag } from './addresses.js';

const sha256 = (d: Uint8Array) => new Uint8Array(createHash('sha256').update(d).digest());
const base58check = createBase58check(sha256);
const catalog = createCatalog();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

// Random seeds plus the extremes, where base58 lengths and leading characters are most likely to go wrong.
const seeds = [
  new Uint8Array(32),
  new Uint8Array(32).fill(0xff),
  ...Array.from({ length: 200 }, () => new Uint8Array(randomBytes(32))),
];

/** EIP-55 written out: a hex letter is upper case when the matching nibble of keccak256(lower-case hex) is >= 8. */
function eip55(lowerHex: string): string {
  const hash = keccak256(new TextEncoder().encode(lowerHex)).slice(2);
  return `0x${[...lowerHex].map((c, i) => (Number.parseInt(hash[i] ?? '0', 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}

/** Decodes with @scure/base / viem, independently of how sandbox.ts encoded, and returns the 20 or 32 bytes inside. */
function decode(asset: Asset, address: string): string {
  const versioned = (version: number) => {
    const payload = base58check.decode(address); // throws on a bad checksum
    expect(payload[0]).toBe(version);
    return hex(payload.subarray(1));
  };
  switch (asset.network) {
    case 'btc':
    case 'ltc': {
      const { prefix, words } = bech32.decode(address as `${string}1${string}`);
      expect(prefix).toBe(asset.network === 'btc' ? 'bc' : 'ltc');
      expect(words[0]).toBe(0);
      return hex(bech32.fromWords(words.slice(1)));
    }
    case 'doge':
      return versioned(0x1e);
    case 'trx':
      return versioned(0x41);
    case 'sol':
      return hex(base58.decode(address));
    case 'xmr': {
      // Monero's own base58 and keccak checksum (our decoder; monero-live.test.ts proves it against wallet-rpc's).
      const decoded = decodeAddress(address);
      expect(decoded).toMatchObject({ net: 'main', kind: 'subaddress' });
      return 'monero';
    }
    case 'xrp': {
      const raw = base58xrp.decode(address);
      const payload = raw.subarray(0, -4);
      expect(hex(raw.subarray(-4))).toBe(hex(sha256(sha256(payload)).subarray(0, 4)));
      expect(payload[0]).toBe(0);
      return hex(payload.subarray(1));
    }
    default:
      expect(isAddress(address, { strict: true })).toBe(true);
      expect(address).toBe(eip55(address.slice(2).toLowerCase()));
      return address.slice(2).toLowerCase();
  }
}

describe('sandboxAddress', () => {
  for (const asset of catalog.list()) {
    it(`${asset.code}: ${seeds.length} seeds give addresses that match walletRegex and decode with a valid checksum`, () => {
      for (const seed of seeds) {
        const address = sandboxAddress(asset, seed);
        expect(isValidAddress(asset, address), `${asset.code} ${address}`).toBe(true);
        const body = asset.family === 'solana' ? seed : seed.subarray(0, 20);
        expect(decode(asset, address), address).toBe(asset.family === 'monero' ? 'monero' : hex(body));
      }
    });
  }

  it('looks like the network: bc1q/ltc1q P2WPKH, D for Dogecoin, T for TRON, r for XRP', () => {
    const seed = new Uint8Array(randomBytes(32));
    const of = (code: string) => sandboxAddress(catalog.get(code) as Asset, seed);
    expect(of('BTC')).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
    expect(of('LTC')).toMatch(/^ltc1q[02-9ac-hj-np-z]{38}$/);
    expect(of('DOGE')).toMatch(/^D/);
    expect(of('TRX')).toMatch(/^T/);
    expect(of('XRP')).toMatch(/^r/);
    // One seed, one EVM address on every EVM network, as with a real key.
    expect(new Set(['ETH', 'USDTERC20', 'BNBBSC', 'USDTMATIC', 'USDCBASE'].map(of)).size).toBe(1);
    expect(of('USDTTRC20')).toBe(of('TRX'));
  });

  it('is deterministic per seed and differs between seeds', () => {
    const btc = catalog.get('BTC') as Asset;
    const [a, b] = [new Uint8Array(randomBytes(32)), new Uint8Array(randomBytes(32))];
    expect(sandboxAddress(btc, a)).toBe(sandboxAddress(btc, Uint8Array.from(a)));
    expect(sandboxAddress(btc, a)).not.toBe(sandboxAddress(btc, b));
  });

  it('refuses seeds that are not 32 bytes and networks it has no format for', () => {
    const btc = catalog.get('BTC') as Asset;
    expect(() => sandboxAddress(btc, new Uint8Array(20))).toThrow(RangeError);
    expect(() => sandboxAddress({ ...btc, network: 'bch' }, new Uint8Array(32))).toThrow(/bch/);
  });
});

describe('sandboxDestinationTag', () => {
  it('is a non-zero uint32 in decimal that matches the XRP extra-id regex', () => {
    const re = new RegExp((catalog.get('XRP') as Asset).extraIdRegex ?? '');
    const tags = seeds.map(sandboxDestinationTag);
    for (const tag of tags) {
      expect(re.test(tag), tag).toBe(true);
      const n = BigInt(tag);
      expect(n >= 1n && n <= 0xffff_ffffn, tag).toBe(true);
      expect(String(n)).toBe(tag);
    }
    expect(tags[0]).toBe('1'); // all-zero seed: tag 0 is avoided
    expect(tags[1]).toBe('1'); // 0xffffffff wraps to 1, never 2^32
    expect(new Set(tags).size).toBeGreaterThan(190);
  });

  it('does not depend on the bytes the address uses', () => {
    const seed = new Uint8Array(randomBytes(32));
    const other = Uint8Array.from(seed);
    other.fill(7, 0, 20);
    expect(sandboxDestinationTag(other)).toBe(sandboxDestinationTag(seed));
  });
});
