import { describe, expect, it } from 'vitest';
import { shippedAssets } from '../../catalog/assets.js';
import {
  defaultConfirmations,
  isUtxoNetwork,
  toBitcoinNetworkConfig,
  utxoNativeAsset,
  utxoNetworkSchemas,
} from './config.js';

function issues(network: 'btc' | 'ltc' | 'doge', input: unknown): string[] {
  const r = utxoNetworkSchemas[network].safeParse(input);
  if (r.success) return [];
  return r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('Bitcoin-family networks in CHAINS_CONFIG', () => {
  it('fills the defaults, with confirmations per chain', () => {
    for (const network of ['btc', 'ltc', 'doge'] as const) {
      const n = utxoNetworkSchemas[network].parse({
        rpcUrl: 'http://127.0.0.1:9332',
        cookieFile: '/var/lib/node/.cookie',
      });
      expect(n).toEqual({
        rpcUrl: 'http://127.0.0.1:9332',
        cookieFile: '/var/lib/node/.cookie',
        chain: 'main',
        confirmations: defaultConfirmations[network],
        pollIntervalMs: 2000,
        timeoutMs: 10_000,
      });
    }
    expect(defaultConfirmations).toEqual({ btc: 2, ltc: 6, doge: 20 });
  });

  it('gives the chain source its configuration, credentials as one auth value', () => {
    const input = {
      rpcUrl: 'https://node.example:8332/',
      rpcUser: 'shop',
      rpcPassword: 's3cret',
      chain: 'regtest',
      confirmations: 3,
      pollIntervalMs: 500,
      timeoutMs: 2000,
      explorerUrl: 'https://mempool.space',
    };
    expect(toBitcoinNetworkConfig('btc', utxoNetworkSchemas.btc.parse(input))).toEqual({
      network: 'btc',
      chain: 'regtest',
      rpcUrl: 'https://node.example:8332/',
      auth: { user: 'shop', password: 's3cret' },
      confirmations: 3,
      pollIntervalMs: 500,
      timeoutMs: 2000,
      nativeAsset: 'BTC',
      explorerUrl: 'https://mempool.space',
    });
    const cookie = utxoNetworkSchemas.doge.parse({ rpcUrl: 'http://127.0.0.1:22555', cookieFile: '/c' });
    expect(toBitcoinNetworkConfig('doge', cookie)).toMatchObject({ auth: { cookieFile: '/c' }, explorerUrl: null });
  });

  it('names native assets that the catalog holds as 8-decimal UTXO coins of the same network', () => {
    for (const [network, code] of Object.entries(utxoNativeAsset)) {
      expect(shippedAssets.find((a) => a.code === code)).toMatchObject({ network, family: 'utxo', decimals: 8 });
    }
  });

  it('takes exactly one way of signing in', () => {
    const url = 'http://127.0.0.1:8332';
    expect(issues('btc', { rpcUrl: url })).toEqual(['cookieFile: give either rpcUser and rpcPassword, or cookieFile']);
    expect(issues('btc', { rpcUrl: url, rpcUser: 'u', rpcPassword: 'p', cookieFile: '/c' })).toEqual([
      'cookieFile: give either rpcUser and rpcPassword, or cookieFile',
    ]);
    expect(issues('btc', { rpcUrl: url, rpcUser: 'u' })).toEqual(['rpcPassword: rpcUser and rpcPassword go together']);
  });

  it('refuses credentials in the URL, other protocols, unknown chains and unknown fields', () => {
    const auth = { cookieFile: '/c' };
    expect(issues('ltc', { rpcUrl: 'http://u:hunter2@127.0.0.1:9332', ...auth })).toEqual([
      'rpcUrl: put credentials in rpcUser/rpcPassword or cookieFile, not in the URL',
    ]);
    expect(issues('ltc', { rpcUrl: 'ftp://127.0.0.1', ...auth })[0]).toMatch(/^rpcUrl: /);
    expect(issues('ltc', { rpcUrl: 'http://127.0.0.1', chain: 'signet', ...auth })[0]).toMatch(/^chain: /);
    expect(issues('ltc', { rpcUrl: 'http://127.0.0.1', confirmations: 0, ...auth })[0]).toMatch(/^confirmations: /);
    expect(issues('ltc', { rpcUrl: 'http://127.0.0.1', chainId: 1, ...auth })[0]).toMatch(/chainId/);
  });

  it('tells Bitcoin-family keys from EVM ones', () => {
    expect(['btc', 'ltc', 'doge', 'eth', 'base', 'constructor'].filter(isUtxoNetwork)).toEqual(['btc', 'ltc', 'doge']);
  });
});
