import { describe, expect, it } from 'vitest';
import { amountUnits, parseExactJson } from './exact-json.js';

describe('parseExactJson', () => {
  it('keeps fractional numbers as their exact text and integers as numbers', () => {
    expect(parseExactJson('{"value":0.10000000,"n":1,"time":1795457890,"neg":-0.5}')).toEqual({
      value: '0.10000000',
      n: 1,
      time: 1795457890,
      neg: '-0.5',
    });
  });

  it('keeps amounts a double cannot hold: a Dogecoin-sized 100000000.00000001 and 0.1 + 0.2', () => {
    const parsed = parseExactJson('[100000000.00000001, 0.1, 0.2]') as string[];
    // Through a double, the one koinu is lost (and 0.29 * 1e8 is 28999999.999999996).
    expect(Math.round(JSON.parse('100000000.00000001') * 1e8)).toBe(10_000_000_000_000_002);
    expect(parsed).toEqual(['100000000.00000001', '0.1', '0.2']);
    expect(amountUnits(parsed[0])).toBe(10_000_000_000_000_001n);
    expect(amountUnits(parsed[1]) + amountUnits(parsed[2])).toBe(30_000_000n);
  });

  it('keeps exponents and integers beyond 15 digits as text', () => {
    expect(parseExactJson('{"difficulty":4.656542373906925e-10,"big":12345678901234567,"e":1E+3}')).toEqual({
      difficulty: '4.656542373906925e-10',
      big: '12345678901234567',
      e: '1E+3',
    });
  });

  it('never touches digits inside strings, escaped quotes included', () => {
    const text = '{"asm":"OP_RETURN 0.5 aa21","q":"say \\"1.5\\" \\\\","hex":"0014c0ce","v":[1.25,{"k":"2.5"}]}';
    expect(parseExactJson(text)).toEqual({
      asm: 'OP_RETURN 0.5 aa21',
      q: 'say "1.5" \\',
      hex: '0014c0ce',
      v: ['1.25', { k: '2.5' }],
    });
  });

  it('rejects what JSON.parse rejects', () => {
    expect(() => parseExactJson('{"value":0.1')).toThrow(SyntaxError);
    expect(() => parseExactJson('<html>')).toThrow(SyntaxError);
  });
});

describe('amountUnits', () => {
  it('converts decimal text to base units exactly', () => {
    expect(amountUnits('0.00000001')).toBe(1n);
    expect(amountUnits('20999999.99999999')).toBe(2_099_999_999_999_999n);
    expect(amountUnits('50.00002880')).toBe(5_000_002_880n);
    expect(amountUnits('0')).toBe(0n);
  });

  it('takes integers a double holds exactly, and keeps a sign', () => {
    expect(amountUnits(21)).toBe(2_100_000_000n);
    expect(amountUnits('-0.00010000')).toBe(-10_000n);
    expect(amountUnits(-1)).toBe(-100_000_000n);
  });

  it('refuses floats, exponents and more than 8 decimals', () => {
    expect(() => amountUnits(0.1)).toThrow(TypeError);
    expect(() => amountUnits('1e-8')).toThrow(TypeError);
    expect(() => amountUnits('0.000000001')).toThrow(TypeError);
    expect(() => amountUnits(null)).toThrow(TypeError);
  });
});
