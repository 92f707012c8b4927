import { describe, expect, it } from 'vitest';
import { shippedAssets } from '../catalog/assets.js';
import type { Asset } from '../catalog/types.js';
import { AppError } from '../errors.js';
import { estimate, minimumAmount } from './amounts.js';

const shipped = (code: string): Asset => {
  const a = shippedAssets.find((x) => x.code === code);
  if (!a) throw new Error(code);
  return a;
};
// Each test fixes the figures it depends on, so tuning the shipped catalog cannot change the hand-computed values.
const btc = { ...shipped('BTC'), minUsd: '5', networkFee: '0.000005' };
const eth = { ...shipped('ETH'), minUsd: '10', networkFee: '0.0002' };
const usdt = { ...shipped('USDTTRC20'), minUsd: '1', networkFee: '1.5' };
const doge = { ...shipped('DOGE'), minUsd: '1', networkFee: '0.05' };

describe('minimumAmount', () => {
  it('converts the USD minimum, rounding up to a whole base unit', () => {
    // 5 / 65000 BTC = 7692.307... sat -> 7693 sat, worth 5.00045 USD -> "5".
    expect(minimumAmount(btc, '65000')).toEqual({ minUnits: 7693n, minUsd: '5' });
  });

  it('takes 10 network fees when they are worth more than the USD minimum', () => {
    // 1 USD = 1 USDT, but 10 x 1.5 USDT fee = 15 USDT.
    expect(minimumAmount(usdt, '1')).toEqual({ minUnits: 15_000_000n, minUsd: '15' });
    // 1 / 0.15 = 6.67 DOGE, but 10 x 0.05 = 0.5 DOGE: the USD minimum wins.
    expect(minimumAmount(doge, '0.15')).toEqual({ minUnits: 666_666_667n, minUsd: '1' });
    // When the coin's price rises the floor binds: 1 USD at 4 USD/DOGE is 0.25 DOGE < 0.5 DOGE of fees.
    expect(minimumAmount(doge, '4')).toEqual({ minUnits: 50_000_000n, minUsd: '2' });
  });

  it('rounds the fee floor to USD half-up', () => {
    // Fee floor 15 USDT at 0.997 USD = 14.955 USD -> 14.96.
    expect(minimumAmount(usdt, '0.997')).toEqual({ minUnits: 15_000_000n, minUsd: '14.96' });
  });

  it('caps 18-decimal amounts at 15 significant digits, still rounding up', () => {
    // 10 / 3000 = 0.00333333333333333... ETH: 15 significant digits rounded up = 0.00333333333333334.
    expect(minimumAmount(eth, '3000')).toEqual({ minUnits: 3_333_333_333_333_340n, minUsd: '10' });
  });

  it('accepts the provider answer as well as the bare rate', () => {
    expect(minimumAmount(btc, { rate: '65000', fetchedAt: 0 })).toEqual(minimumAmount(btc, '65000'));
  });
});

describe('estimate', () => {
  it('converts a USD price exactly and reports the typical fee in base units', () => {
    // 100 / 65000 BTC = 153846.15... sat -> 153847 sat.
    expect(estimate(btc, '65000', '100')).toEqual({ units: 153_847n, feeUnits: 500n });
    // 10 / 0.1234 = 81.0372771474878... DOGE -> 81.03727715.
    expect(estimate(doge, '0.1234', '10')).toEqual({ units: 8_103_727_715n, feeUnits: 5_000_000n });
    // 12.34 USD at 1.001 = 12.3276723276... USDT -> 12.327673 (6 decimals, up).
    expect(estimate(usdt, '1.001', '12.34')).toEqual({ units: 12_327_673n, feeUnits: 1_500_000n });
  });

  it('rounds the USD amount half-up to cents first, like a payment does', () => {
    expect(estimate(usdt, '1', '10.005')).toEqual(estimate(usdt, '1', '10.01'));
    expect(estimate(usdt, '1', '10.004').units).toBe(10_000_000n);
  });

  it('caps 18-decimal amounts at 15 significant digits', () => {
    // 100 / 3000 = 0.0333333333333333... -> 0.0333333333333334 (15 significant digits).
    expect(estimate(eth, '3000', '100').units).toBe(33_333_333_333_333_400n);
    expect(estimate(eth, '3000', '100').feeUnits).toBe(200_000_000_000_000n);
  });

  it('answers null for the fee when the catalog figure does not fit the asset', () => {
    expect(estimate({ ...usdt, networkFee: '0.0000001' }, '1', '5').feeUnits).toBeNull();
  });

  it('refuses malformed, zero and sub-cent amounts with a 422 on `amount`', () => {
    for (const bad of ['', 'abc', '-5', '1e3', '0', '0.004']) {
      let caught: unknown;
      try {
        estimate(usdt, '1', bad);
      } catch (e) {
        caught = e;
      }
      expect(caught, bad).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('VALIDATION_FAILED');
      expect(Object.keys((caught as AppError).errors ?? {})).toEqual(['amount']);
    }
  });
});
