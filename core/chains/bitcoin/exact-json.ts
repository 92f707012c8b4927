import { toUnits } from '../../money/decimal.js';

/*
 * Bitcoin Core writes amounts as bare JSON numbers with 8 decimals ("value": 0.10000000). JSON.parse would turn
 * them into doubles, and 0.1 + 0.2 or 20999999.99999999 do not survive that. The node's answer is therefore parsed
 * with every non-integer number (and every integer too long for a double) kept as its exact text.
 */

/**
 * A JSON string token (skipped whole, so digits inside strings are never touched), or a number that a double may not
 * hold exactly: one with a fraction or an exponent, or an integer of 16 digits or more. Outside strings, only
 * numbers contain digits in JSON, and a number always matches from its first character, so no number is split.
 */
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?[eE][+-]?\d+|-?\d+\.\d+|-?\d{16,}/g;

/**
 * JSON.parse, except that numbers with a fraction or an exponent, and integers of 16 digits or more, come back as
 * strings holding their exact digits. Integers a double holds exactly stay numbers.
 *
 * @example
 * parseExactJson('{"value":0.10000000,"n":1}') // { value: '0.10000000', n: 1 }
 */
export function parseExactJson(text: string): unknown {
  return JSON.parse(text.replace(TOKENS, (token) => (token.charCodeAt(0) === 34 ? token : `"${token}"`)));
}

const COIN_DECIMALS = 8;

/**
 * An amount from the node's JSON (as `parseExactJson` leaves it) in base units: satoshis for BTC, litoshis for LTC,
 * koinu for DOGE. Negative amounts (wallet fees) keep their sign. Throws on anything that is not an exact amount.
 *
 * @example
 * amountUnits('0.10000000') // 10000000n
 * amountUnits(-1) // -100000000n
 */
export function amountUnits(value: unknown): bigint {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) text = String(value);
  else throw new TypeError(`not an amount: ${typeof value === 'number' ? value : typeof value}`);
  const negative = text.startsWith('-');
  const units = toUnits(negative ? text.slice(1) : text, COIN_DECIMALS);
  if (units === null) throw new TypeError(`not an amount with at most ${COIN_DECIMALS} decimals: ${text}`);
  return negative ? -units : units;
}
