import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { shippedAssets } from '../../catalog/assets.js';
import { applyChainsConfig, parseChainsConfig } from './config.js';

const token = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

function file(json: unknown): string {
  const path = join(tmpdir(), `chains-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof json === 'string' ? json : JSON.stringify(json));
  return path;
}

describe('CHAINS_CONFIG', () => {
  it('reads every EVM network with the same shape; mainnet ids keep the catalog contracts, others must name theirs', () => {
    const nets = parseChainsConfig(
      {
        networks: {
          eth: { rpcUrl: 'https://eth.example/rpc', chainId: 1, confirmations: 12 },
          bsc: { rpcUrl: 'https://bsc.example/rpc', chainId: 56, confirmations: 15, pollIntervalMs: 3000 },
          matic: { rpcUrl: 'https://polygon.example/rpc', chainId: 137, confirmations: 64 },
          base: { rpcUrl: 'http://127.0.0.1:8545', chainId: 31337, confirmations: 1, tokens: { usdcbase: token } },
        },
      },
      shippedAssets,
    );
    expect(nets.map((n) => n.network)).toEqual(['eth', 'bsc', 'matic', 'base']);
    const eth = nets[0];
    expect(eth?.pollIntervalMs).toBe(2000);
    expect(eth?.tokens).toEqual([
      { asset: 'USDTERC20', contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
      { asset: 'USDCERC20', contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
    ]);
    // Stored checksummed, as the watcher and payments compare them.
    expect(nets[3]?.tokens).toEqual([{ asset: 'USDCBASE', contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }]);
    const assets = applyChainsConfig(shippedAssets, nets);
    expect(assets.find((a) => a.code === 'USDCBASE')).toMatchObject({
      chainId: 31337,
      smartContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    });
    expect(assets.find((a) => a.code === 'BTC')).toEqual(shippedAssets.find((a) => a.code === 'BTC'));
  });

  it('takes an optional http(s) explorerUrl per network, without a trailing slash, and null when absent', () => {
    const nets = parseChainsConfig(
      {
        networks: {
          eth: {
            rpcUrl: 'https://eth.example/rpc',
            chainId: 1,
            confirmations: 12,
            explorerUrl: 'https://etherscan.io/',
          },
          bsc: { rpcUrl: 'https://bsc.example/rpc', chainId: 56, confirmations: 15 },
        },
      },
      shippedAssets,
    );
    expect(nets.map((n) => n.explorerUrl)).toEqual(['https://etherscan.io', null]);
    expect(() =>
      parseChainsConfig(
        {
          networks: {
            eth: { rpcUrl: 'https://x.example', chainId: 1, confirmations: 1, explorerUrl: 'javascript:alert(1)' },
          },
        },
        shippedAssets,
      ),
    ).toThrow(/networks\.eth\.explorerUrl/);
  });

  it('takes an optional public http(s) walletRpcUrl per network for wallets that lack the chain, null when absent', () => {
    const nets = parseChainsConfig(
      {
        networks: {
          eth: {
            rpcUrl: 'https://eth.example/rpc?key=s',
            chainId: 1,
            confirmations: 1,
            walletRpcUrl: 'https://rpc.example',
          },
          bsc: { rpcUrl: 'https://bsc.example/rpc', chainId: 56, confirmations: 15 },
        },
      },
      shippedAssets,
    );
    expect(nets.map((n) => n.walletRpcUrl)).toEqual(['https://rpc.example', null]);
    expect(() =>
      parseChainsConfig(
        { networks: { eth: { rpcUrl: 'https://x.example', chainId: 1, confirmations: 1, walletRpcUrl: 'ws://x' } } },
        shippedAssets,
      ),
    ).toThrow(/networks\.eth\.walletRpcUrl/);
  });

  it('stops start-up with one line naming CHAINS_CONFIG and the place of the mistake', () => {
    const bad: [unknown, RegExp][] = [
      ['{not json', /not valid JSON/],
      [
        { networks: { trx: { rpcUrl: 'https://x.example', chainId: 1, confirmations: 1 } } },
        /networks\.trx: test mode only \(sandbox\), no live network; supported live networks: /,
      ],
      // Named unsupported before any of its fields is checked.
      [{ networks: { trx: {} } }, /networks\.trx: test mode only \(sandbox\)/],
      [{ networks: { sol: { rpcUrl: 'https://x.example' } } }, /networks\.sol: test mode only \(sandbox\)/],
      [{ networks: { eth: {}, xrp: {} } }, /networks\.xrp: test mode only \(sandbox\)/],
      [{ networks: { avax: {} } }, /networks\.avax: not a network of the catalog; supported live networks: /],
      // Bitcoin-family keys take the node's schema (core/chains/bitcoin/config.ts), with the same one-line report.
      [{ networks: { btc: { rpcUrl: 'http://127.0.0.1:8332' } } }, /networks\.btc\.cookieFile: give either rpcUser/],
      [
        { networks: { ltc: { rpcUrl: 'http://127.0.0.1:9332', cookieFile: '/x/.cookie', chain: 'signet' } } },
        /networks\.ltc\.chain/,
      ],
      [{ networks: { eth: { rpcUrl: 'ftp://x.example', chainId: 1, confirmations: 1 } } }, /networks\.eth\.rpcUrl/],
      [
        { networks: { eth: { rpcUrl: 'https://x.example', chainId: 1, confirmations: 0 } } },
        /networks\.eth\.confirmations/,
      ],
      [
        {
          networks: { eth: { rpcUrl: 'https://x.example', chainId: 1, confirmations: 1, tokens: { USDTBSC: token } } },
        },
        /tokens\.USDTBSC: not a token of network eth/,
      ],
      [
        {
          networks: {
            eth: { rpcUrl: 'https://x.example', chainId: 5, confirmations: 1, tokens: { USDTERC20: token } },
          },
        },
        /tokens\.USDCERC20: required because chainId 5/,
      ],
      [
        {
          networks: {
            eth: { rpcUrl: 'https://x.example', chainId: 1, confirmations: 1, tokens: { USDTERC20: '0x12' } },
          },
        },
        /tokens\.USDTERC20/,
      ],
      [
        { networks: { eth: { rpcUrl: 'https://x.example', chainId: 1, confirmations: 1, extra: true } } },
        /networks\.eth/,
      ],
    ];
    for (const [json, message] of bad) {
      expect(() => loadConfig({ CHAINS_CONFIG: file(json) }), JSON.stringify(json)).toThrow(
        /^Invalid configuration: CHAINS_CONFIG: /,
      );
      expect(() => loadConfig({ CHAINS_CONFIG: file(json) })).toThrow(message);
    }
    expect(() => loadConfig({ CHAINS_CONFIG: '/nonexistent/chains.json' })).toThrow(
      /CHAINS_CONFIG: cannot read \/nonexistent\/chains.json: ENOENT/,
    );
    expect(loadConfig({}).EVM_NETWORKS).toEqual([]);
    expect(loadConfig({}).UTXO_NETWORKS).toEqual([]);
    const both = loadConfig({
      CHAINS_CONFIG: file({
        networks: {
          eth: { rpcUrl: 'https://x.example', chainId: 1, confirmations: 1 },
          doge: { rpcUrl: 'http://127.0.0.1:22555', rpcUser: 'shop', rpcPassword: 'pw', chain: 'test' },
        },
      }),
    });
    expect(both.EVM_NETWORKS.map((n) => n.network)).toEqual(['eth']);
    expect(both.UTXO_NETWORKS).toMatchObject([
      {
        network: 'doge',
        chain: 'test',
        confirmations: 20,
        nativeAsset: 'DOGE',
        auth: { user: 'shop', password: 'pw' },
      },
    ]);
  });
});

describe('CHAINS_CONFIG: the supported live networks', () => {
  it('lists every network with a live watcher and none of the sandbox-only ones', () => {
    expect(() => loadConfig({ CHAINS_CONFIG: file({ networks: { trx: {} } }) })).toThrow(
      'Invalid configuration: CHAINS_CONFIG: networks.trx: test mode only (sandbox), no live network; ' +
        'supported live networks: btc, eth, ltc, doge, bsc, matic, base, xmr',
    );
  });
});
