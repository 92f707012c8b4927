import { describe, expect, it } from 'vitest';
import {
  Decimal,
  fromUnits,
  numberToDecimalText,
  stringifyJson,
  toUnits,
  unitsToUsd,
  usdToAssetUnits,
  usdToCents,
} from './decimal.js';

describe('exact decimal money', () => {
  it('converts between text and base units without floats', () => {
    expect(toUnits('0.00153847', 8)).toBe(153847n);
    expect(toUnits('1.10', 2)).toBe(110n);
    expect(toUnits('0.000000001', 8)).toBeNull(); // more decimals than the asset has
    expect(toUnits('1e-7', 8)).toBeNull();
    expect(fromUnits(10000000000000000001n, 18)).toBe('10.000000000000000001');
    expect(fromUnits(0n, 6)).toBe('0');
  });

  it('reads JSON numbers by their own shortest digits', () => {
    expect(numberToDecimalText(19.99)).toBe('19.99');
    expect(numberToDecimalText(1e-7)).toBe('0.0000001');
    expect(numberToDecimalText(1e21)).toBe('1000000000000000000000');
    expect(numberToDecimalText(-1)).toBeNull();
  });

  it('rounds USD half-up to cents', () => {
    expect(usdToCents('10.005')).toBe(1001n);
    expect(usdToCents('10.004')).toBe(1000n);
  });

  it('rounds pay amounts up, to at most 15 significant digits', () => {
    // 100 USD at 65000 USD/BTC = 0.0015384615...: up to 8 decimals.
    expect(fromUnits(usdToAssetUnits(10000n, '65000', 8), 8)).toBe('0.00153847');
    // 100 USD at 3000 USD/ETH = 0.0333...: 18 decimals would exceed 15 significant digits.
    expect(fromUnits(usdToAssetUnits(10000n, '3000', 18), 18)).toBe('0.0333333333333334');
    // Exact results are not bumped.
    expect(fromUnits(usdToAssetUnits(10000n, '1', 6), 6)).toBe('100');
    expect(unitsToUsd(153847n, 8, '65000')).toBe('100');
  });

  it('writes Decimal values as bare JSON numbers with their exact digits, and nothing else', () => {
    const json = stringifyJson({
      tiny: new Decimal('0.0000001'),
      list: [new Decimal('12.50')],
      big: 5n,
      text: 'x\u0000dec:5',
    });
    expect(json).toBe('{"tiny":0.0000001,"list":[12.50],"big":"5","text":"x\\u0000dec:5"}');
    expect(JSON.parse(json).tiny).toBe(1e-7);
    // Outside stringifyJson a Decimal is still a plain number.
    expect(JSON.stringify({ a: new Decimal('0.5') })).toBe('{"a":0.5}');
  });
});
