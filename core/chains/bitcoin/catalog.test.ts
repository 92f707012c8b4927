import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { shippedAssets } from '../../catalog/assets.js';
import { isValidAddress } from '../../catalog/catalog.js';
import type { Asset } from '../../catalog/types.js';
import { applyUtxoConfig } from './catalog.js';
import { toBitcoinNetworkConfig, utxoNetworkSchemas } from './config.js';

function configured(network: 'btc' | 'ltc' | 'doge', chain: 'main' | 'test' | 'regtest'): Asset[] {
  const n = toBitcoinNetworkConfig(
    network,
    utxoNetworkSchemas[network].parse({ rpcUrl: 'http://127.0.0.1:1', cookieFile: '/x/.cookie', chain }),
  );
  return applyUtxoConfig(shippedAssets, [n]);
}

const asset = (assets: Asset[], code: string) => assets.find((a) => a.code === code) as Asset;

/** The same witness program under another human-readable part (BIP173), checksum and all. */
const reencode = (address: string, hrp: string) =>
  bech32.encode(hrp, bech32.decode(address as `${string}1${string}`).words);
const LTC_0 = 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh';

describe('wallet_regex of a Bitcoin-family asset follows its node network', () => {
  it('mainnet nodes keep the shipped shapes: test-network addresses are refused', () => {
    const assets = configured('btc', 'main');
    expect(asset(assets, 'BTC').walletRegex).toBe(asset([...shippedAssets], 'BTC').walletRegex);
    expect(isValidAddress(asset(assets, 'BTC'), 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl')).toBe(false);
  });

  it('test and regtest nodes also accept their own forms, and still refuse a sibling chain', () => {
    // BIP84's testnet vector (tb1q...), and the LTC vector's program as each network writes it.
    const btcTest = asset(configured('btc', 'test'), 'BTC');
    expect(isValidAddress(btcTest, 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl')).toBe(true);
    expect(isValidAddress(btcTest, 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu')).toBe(true);
    expect(isValidAddress(btcTest, reencode(LTC_0, 'tltc'))).toBe(false);
    const ltcReg = asset(configured('ltc', 'regtest'), 'LTC');
    expect(isValidAddress(ltcReg, reencode(LTC_0, 'rltc'))).toBe(true);
    expect(isValidAddress(ltcReg, LTC_0)).toBe(true);
    expect(isValidAddress(ltcReg, 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn')).toBe(true);
    expect(isValidAddress(ltcReg, reencode(LTC_0, 'bcrt'))).toBe(false);
    const dogeReg = asset(configured('doge', 'regtest'), 'DOGE');
    expect(isValidAddress(dogeReg, 'n3GNqMveyvaPvUbH469vDRadqpJMPc84JA')).toBe(true);
    expect(isValidAddress(dogeReg, 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC')).toBe(true);
    expect(isValidAddress(dogeReg, reencode(LTC_0, 'rltc'))).toBe(false);
    // Other assets are untouched.
    expect(asset(configured('ltc', 'regtest'), 'ETH')).toEqual(asset([...shippedAssets], 'ETH'));
  });
});
