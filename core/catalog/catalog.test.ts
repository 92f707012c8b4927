import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { base58, base58xrp, bech32, bech32m, createBase58check } from '@scure/base';
import { isAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeAddress } from '../chains/monero/monero.js';
import { ManualClock } from '../clock.js';
import { toUnits } from '../money/decimal.js';
import { createFixedRates } from '../pricing/fixed-rates.js';
import { shippedAssets } from './assets.js';
import { createCatalog, isValidAddress } from './catalog.js';
import type { Asset } from './types.js';

const sha256 = (d: Uint8Array) => new Uint8Array(createHash('sha256').update(d).digest());
const base58check = createBase58check(sha256);

/*
 * Real mainnet addresses, each public and well known. The "decodes" checks below prove every one carries a valid
 * checksum for its network, so a typo here cannot make a regex look right.
 */
const real = {
  btc: [
    '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', // genesis block coinbase
    '34xp4vRoCGJym3xR7yCVPFHoCNxv4Twseo', // Binance cold wallet (P2SH)
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', // large exchange wallet (P2WPKH)
    'bc1qgdjqv0av3q56jvd82tkdjpy7gdp9ut8tlqmgrpmv24sq90ecnvqqjwvw97', // Bitfinex cold wallet (P2WSH)
    'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297', // BIP-86 first taproot address
  ],
  ltc: [
    'LdP8Qox1VAhCzLJNqrr74YovaWYyNBUWvL',
    'M8T1B2Z97gVdvmfkQcAtYbEepune1tzGua',
    'ltc1qzvcgmntglcuv4smv3lzj6k8szcvsrmvk0phrr9wfq8w493r096ssm2fgsw', // OKX (P2WSH)
  ],
  doge: [
    'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L', // Robinhood
    'DBs4WcRE7eysKwRxHNX88XZVCQ9M6QSUSz',
    'A6x4jjE7Mq7t3XHza2mPBg2GTBbnp6AANh', // P2SH
  ],
  eth: [
    '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe', // Ethereum Foundation
    '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', // vitalik.eth
    '0x28C6c06298d514Db089934071355E5743bf21d60', // Binance 14
    '0xdac17f958d2ee523a2206206994597c13d831ec7', // USDT contract, all lower case
  ],
  bsc: ['0x8894E0a0c962CB723c1976a4421c95949bE2D4E3', '0xF977814e90dA44bFA03b6295A0616a897441aceC'], // Binance hot / Binance 8
  matic: ['0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F'], // WMATIC, USDT
  base: ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', '0x4200000000000000000000000000000000000006'], // USDC, WETH
  trx: [
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // USDT contract
    'TMuA6YqfCeX8EhbfYEg5y7S4DqzSJireY9', // Binance
    'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  ],
  sol: [
    'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', // USDC mint
    'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', // USDT mint
    '11111111111111111111111111111111', // System Program
    '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  ],
  xrp: [
    'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', // genesis account
    'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh', // Binance
    'rJb5KsHsDHF1YS5B5DU6QCkH5NsPaKQTcy', // Binance
    'rrrrrrrrrrrrrrrrrrrrrhoLvTp', // ACCOUNT_ZERO, the shortest form
  ],
  xmr: [
    '44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A', // Monero General Fund
    '888tNkZrPN6JsEgekjMnABU4TBzc2Dt29EPAvkRxbANsAnjyPbb3iQ1YBRk1UXcdRsiKc9dhwMVgN5S9cQUiyoogDavup3H', // subaddress
  ],
} satisfies Record<string, string[]>;

/** Addresses of other networks (and near misses) that an asset on `network` must refuse. */
const foreign: Record<keyof typeof real, string[]> = {
  btc: [
    ...real.ltc,
    ...real.doge.slice(0, 2),
    real.eth[0] ?? '',
    real.trx[1] ?? '',
    real.xrp[0] ?? '',
    'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', // testnet
    'bc1qAr0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', // mixed case is invalid bech32
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5md', // one character short
    '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0', // 0 is not base58
  ],
  ltc: [...real.btc, ...real.doge, real.eth[0] ?? '', 'tltc1qzvcgmntglcuv4smv3lzj6k8szcvsrmvk0phrr9'],
  doge: [...real.btc, ...real.ltc, real.trx[0] ?? '', real.xrp[0] ?? ''],
  eth: [
    ...real.trx,
    real.btc[0] ?? '',
    '0x742d35Cc6634C0532925a3b844Bc9e7595f0bEb', // 39 hex digits, a common copy-paste error
    '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe0',
    'de0B295669a9FD93d5F28D9Ec85E40f4cb697BAe',
    '0xzz0B295669a9FD93d5F28D9Ec85E40f4cb697BAe',
  ],
  bsc: [...real.trx, real.sol[0] ?? ''],
  matic: [...real.trx, real.xrp[0] ?? ''],
  base: [...real.trx, real.btc[2] ?? ''],
  trx: [...real.eth, real.btc[0] ?? '', real.xrp[0] ?? '', real.sol[0] ?? '', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6'],
  // Base58 32-44 is Solana's whole shape, so only non-base58 or wrongly sized strings can be refused.
  sol: [...real.eth, real.btc[2] ?? '', real.btc[4] ?? '', real.xrp[3] ?? '', `${real.sol[0]}1234567`],
  xrp: [...real.trx, real.btc[0] ?? '', real.eth[0] ?? '', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyT0'],
  // A testnet (9...) address's shape, an integrated address (106 characters), other networks.
  xmr: [...real.btc, ...real.sol, `9${(real.xmr[0] ?? '').slice(1)}`, `4${'1'.repeat(105)}`],
};

const networks = Object.keys(real) as (keyof typeof real)[];
const catalog = createCatalog();

function decodes(network: keyof typeof real, address: string): boolean {
  const version = (v: number[]) => {
    const payload = base58check.decode(address);
    return payload.length === 21 && v.includes(payload[0] ?? -1);
  };
  switch (network) {
    case 'btc':
    case 'ltc': {
      if (/^(bc|ltc)1p/i.test(address))
        return bech32m.decode(address as `${string}1${string}`).prefix === network.replace('btc', 'bc');
      if (/^(bc|ltc)1/i.test(address))
        return bech32.decode(address as `${string}1${string}`).prefix === network.replace('btc', 'bc');
      return version(network === 'btc' ? [0x00, 0x05] : [0x30, 0x32]);
    }
    case 'doge':
      return version([0x1e, 0x16]);
    case 'trx':
      return version([0x41]);
    case 'sol':
      return base58.decode(address).length === 32;
    case 'xmr':
      return decodeAddress(address) !== null;
    case 'xrp': {
      const raw = base58xrp.decode(address);
      const payload = raw.subarray(0, -4);
      return payload[0] === 0 && Buffer.from(sha256(sha256(payload)).subarray(0, 4)).equals(raw.subarray(-4));
    }
    default:
      return isAddress(address, { strict: true });
  }
}

describe('shipped catalog', () => {
  it('has every required asset with its network, contract and decimals', () => {
    const expected: [string, string, string | null, number, number | null][] = [
      ['BTC', 'btc', null, 8, null],
      ['LTC', 'ltc', null, 8, null],
      ['DOGE', 'doge', null, 8, null],
      ['ETH', 'eth', null, 18, 1],
      ['USDTERC20', 'eth', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 6, 1],
      ['USDCERC20', 'eth', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6, 1],
      ['BNBBSC', 'bsc', null, 18, 56],
      ['USDTBSC', 'bsc', '0x55d398326f99059fF775485246999027B3197955', 18, 56],
      ['POL', 'matic', null, 18, 137],
      ['USDTMATIC', 'matic', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 6, 137],
      ['TRX', 'trx', null, 6, null],
      ['USDTTRC20', 'trx', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 6, null],
      ['SOL', 'sol', null, 9, null],
      ['XRP', 'xrp', null, 6, null],
      ['XMR', 'xmr', null, 12, null],
      ['ETHBASE', 'base', null, 18, 8453],
      ['USDCBASE', 'base', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 6, 8453],
    ];
    for (const [code, network, contract, decimals, chainId] of expected) {
      const a = catalog.get(code);
      expect(a, code).toBeDefined();
      expect([a?.network, a?.smartContract, a?.decimals, a?.chainId], code).toEqual([
        network,
        contract,
        decimals,
        chainId,
      ]);
    }
    expect(catalog.get('USDCERC20')?.name).toBe('USD Coin (ERC-20)');
  });

  it('has unique codes, code ids and priorities, upper-case codes and the right CoinGecko ids', () => {
    const list = catalog.list();
    for (const key of ['code', 'codeId', 'priority'] as const) {
      expect(new Set(list.map((a) => a[key])).size, key).toBe(list.length);
    }
    for (const a of list) expect(a.code).toBe(a.code.toUpperCase());
    const cg = Object.fromEntries(list.map((a) => [a.code, a.cgId]));
    expect(cg).toMatchObject({
      BTC: 'bitcoin',
      LTC: 'litecoin',
      DOGE: 'dogecoin',
      ETH: 'ethereum',
      USDTERC20: 'tether',
      USDCERC20: 'usd-coin',
      BNBBSC: 'binancecoin',
      USDTBSC: 'tether',
      POL: 'polygon-ecosystem-token',
      USDTMATIC: 'tether',
      TRX: 'tron',
      USDTTRC20: 'tether',
      SOL: 'solana',
      XRP: 'ripple',
    });
  });

  it('keeps contracts as checksummed EVM addresses and EVM chain ids only on EVM assets', () => {
    for (const a of catalog.list()) {
      expect(a.chainId !== null, a.code).toBe(a.family === 'evm');
      if (a.family === 'evm' && a.smartContract)
        expect(isAddress(a.smartContract, { strict: true }), a.code).toBe(true);
      if (a.smartContract) expect(isValidAddress(a, a.smartContract), a.code).toBe(true);
    }
  });

  it('states minimums and fees that parse exactly, with the minimum at least 10 network fees at test rates', async () => {
    const rates = createFixedRates(new ManualClock());
    for (const a of catalog.list()) {
      expect(toUnits(a.networkFee, a.decimals), `${a.code} networkFee`).not.toBeNull();
      const { rate } = await rates.usdRate(a);
      // minUsd / rate >= 10 * fee  <=>  minUsd >= 10 * fee * rate: checked in exact integer arithmetic.
      const scale = 10n ** 30n;
      const lhs = (toUnits(a.minUsd, 30) ?? 0n) * scale;
      const rhs = 10n * (toUnits(a.networkFee, 30) ?? 0n) * (toUnits(rate, 30) ?? 0n);
      expect(lhs >= rhs, `${a.code} minUsd ${a.minUsd} vs fee ${a.networkFee} at ${rate}`).toBe(true);
    }
  });

  it('ships an icon under public/icons for every asset, small enough to inline', () => {
    for (const a of catalog.list()) {
      const file = new URL(`../../public/icons/${a.logoFile}`, import.meta.url);
      expect(existsSync(file), a.logoFile).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg.startsWith('<svg'), a.logoFile).toBe(true);
      expect(Buffer.byteLength(svg), a.logoFile).toBeLessThan(1024);
    }
  });
});

describe('wallet regexes', () => {
  it('compile, are anchored at both ends, and extra-id regexes exist exactly when extra ids do', () => {
    for (const a of catalog.list()) {
      expect(() => new RegExp(a.walletRegex), a.code).not.toThrow();
      expect(a.walletRegex.startsWith('^') && a.walletRegex.endsWith('$'), a.code).toBe(true);
      expect(a.extraIdRegex !== null, a.code).toBe(a.extraIdExists);
      if (a.extraIdRegex) expect(() => new RegExp(a.extraIdRegex ?? ''), a.code).not.toThrow();
    }
  });

  it('test addresses are real: each decodes with a valid checksum for its network', () => {
    for (const network of networks) {
      for (const address of real[network]) expect(decodes(network, address), `${network} ${address}`).toBe(true);
    }
  });

  for (const network of networks) {
    it(`accept real ${network} addresses on every ${network} asset`, () => {
      const assets = catalog.list().filter((a) => a.network === network);
      expect(assets.length).toBeGreaterThan(0);
      for (const a of assets)
        for (const addr of real[network]) expect(isValidAddress(a, addr), `${a.code} ${addr}`).toBe(true);
    });

    it(`refuse other networks' addresses on ${network} assets`, () => {
      for (const a of catalog.list().filter((x) => x.network === network)) {
        for (const addr of foreign[network]) expect(isValidAddress(a, addr), `${a.code} ${addr}`).toBe(false);
      }
    });
  }

  it('accept the upper-case bech32 form BIP-173 allows for QR codes', () => {
    const btc = catalog.get('BTC') as Asset;
    expect(isValidAddress(btc, (real.btc[2] ?? '').toUpperCase())).toBe(true);
    expect(isValidAddress(catalog.get('LTC') as Asset, (real.ltc[2] ?? '').toUpperCase())).toBe(true);
  });

  it('XRP destination tags: digits of a uint32 only', () => {
    const xrp = catalog.get('XRP') as Asset;
    const re = new RegExp(xrp.extraIdRegex ?? '');
    for (const ok of ['0', '1', '12345', '4294967295']) expect(re.test(ok), ok).toBe(true);
    for (const bad of ['', '-1', '1.5', 'abc', '12345678901', ' 1', '0x10']) expect(re.test(bad), bad).toBe(false);
    for (const a of catalog.list().filter((x) => x.code !== 'XRP'))
      expect([a.extraIdExists, a.extraIdRegex]).toEqual([false, null]);
  });
});

describe('createCatalog', () => {
  it('finds assets whatever the case of the code', () => {
    for (const code of ['btc', 'Btc', 'BTC', 'bTc']) expect(catalog.get(code)?.code).toBe('BTC');
    expect(catalog.get('usdttrc20')?.code).toBe('USDTTRC20');
    expect(catalog.get('doesnotexist')).toBeUndefined();
  });

  it('lists by priority and hands out copies that cannot change the catalog', () => {
    const list = catalog.list();
    expect(list.map((a) => a.priority)).toEqual([...list.map((a) => a.priority)].sort((x, y) => x - y));
    list.pop();
    expect(catalog.list()).toHaveLength(shippedAssets.length);
    expect(() => {
      (catalog.get('BTC') as { minUsd: string }).minUsd = '0';
    }).toThrow(TypeError);
  });

  it('applies minimum overrides by code in any case, leaving the shipped assets alone', () => {
    const c = createCatalog(shippedAssets, { minUsd: { btc: '20', UsdtTrc20: '2.5' } });
    expect(c.get('BTC')?.minUsd).toBe('20');
    expect(c.get('USDTTRC20')?.minUsd).toBe('2.5');
    expect(c.get('ETH')?.minUsd).toBe(catalog.get('ETH')?.minUsd);
    expect(shippedAssets.find((a) => a.code === 'BTC')?.minUsd).toBe('5');
  });

  it('refuses overrides for unknown assets or with bad amounts, and duplicate codes', () => {
    expect(() => createCatalog(shippedAssets, { minUsd: { BTX: '5' } })).toThrow(/unknown asset BTX/);
    expect(() => createCatalog(shippedAssets, { minUsd: { BTC: '-5' } })).toThrow(/BTC/);
    expect(() => createCatalog(shippedAssets, { minUsd: { BTC: '5 USD' } })).toThrow(/BTC/);
    const btc = shippedAssets[0] as Asset;
    expect(() => createCatalog([btc, { ...btc, code: 'btc' }])).toThrow(/duplicate/);
  });
});
