import { describe, expect, it } from 'vitest';
import { assetLabel, assetTicker, networkName } from './asset-label.js';
import { shippedAssets } from './assets.js';

describe('asset labels', () => {
  it('names tokens by ticker and network, and plain coins by their code', () => {
    expect(assetLabel('USDTERC20')).toBe('USDT (Ethereum)');
    expect(assetLabel('usdttrc20')).toBe('USDT (Tron)');
    expect(assetLabel('BNBBSC')).toBe('BNB (BNB Smart Chain)');
    expect(assetLabel('USDTMATIC')).toBe('USDT (Polygon)');
    expect(assetLabel('ETHBASE')).toBe('ETH (Base)');
    expect(assetLabel('BTC')).toBe('BTC');
    expect(assetLabel('POL')).toBe('POL');
  });

  it('gives the ticker alone, as the popup prints it beside the network name', () => {
    expect(assetTicker('USDTERC20')).toBe('USDT');
    expect(assetTicker('usdcbase')).toBe('USDC');
    expect(assetTicker('BNBBSC')).toBe('BNB');
    expect(assetTicker('LTC')).toBe('LTC');
    expect(networkName('eth')).toBe('Ethereum');
    expect(networkName('unknown')).toBe('unknown');
  });

  it('agrees with the catalog: a suffixed code sits on the network it names, every network has a name', () => {
    for (const a of shippedAssets) {
      const label = assetLabel(a.code);
      if (label !== a.code) expect(label).toMatch(new RegExp(`\\(${networkName(a.network)}\\)$`));
      expect(networkName(a.network)).not.toBe(a.network);
    }
  });
});
