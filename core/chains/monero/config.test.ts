import { describe, expect, it } from 'vitest';
import { shippedAssets } from '../../catalog/assets.js';
import { parseChainsFile } from '../chains-config.js';
import { ChainsConfigError } from '../evm/config.js';

describe('Monero (xmr) in CHAINS_CONFIG', () => {
  it('fills the defaults: 10 confirmations, 2 s polls, 10 s per call; overrides are kept', () => {
    const { monero, utxo, evm } = parseChainsFile(
      { networks: { xmr: { rpcUrl: 'http://127.0.0.1:18081' } } },
      shippedAssets,
    );
    expect(monero).toEqual({
      network: 'xmr',
      rpcUrl: 'http://127.0.0.1:18081',
      confirmations: 10,
      pollIntervalMs: 2000,
      timeoutMs: 10_000,
      explorerUrl: null,
    });
    expect([utxo, evm]).toEqual([[], []]);
    const custom = parseChainsFile(
      { networks: { xmr: { rpcUrl: 'https://xmr.example/', confirmations: 3, explorerUrl: 'https://xmrchain.net' } } },
      shippedAssets,
    ).monero;
    expect(custom).toMatchObject({ confirmations: 3, explorerUrl: 'https://xmrchain.net' });
    expect(parseChainsFile({ networks: {} }, shippedAssets).monero).toBeNull();
  });

  it('refuses a mistake with one line naming its place; credentials in the URL are refused', () => {
    const problem = (xmr: unknown) => {
      try {
        parseChainsFile({ networks: { xmr } }, shippedAssets);
        return null;
      } catch (e) {
        expect(e).toBeInstanceOf(ChainsConfigError);
        return (e as Error).message;
      }
    };
    expect(problem({ rpcUrl: 'http://u:p@127.0.0.1:18081' })).toMatch(/^networks\.xmr\.rpcUrl: monerod RPC login/);
    expect(problem({ rpcUrl: 'http://127.0.0.1:18081', confirmations: 0 })).toMatch(/^networks\.xmr\.confirmations:/);
    expect(problem({ rpcUrl: 'http://127.0.0.1:18081', wallet: 'x' })).toMatch(/^networks\.xmr/);
    expect(problem({})).toMatch(/^networks\.xmr\.rpcUrl/);
  });
});
