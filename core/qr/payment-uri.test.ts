import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { qrSvgDataUrl } from './encode.js';
import { evmTransfer, type PaymentUriInput, paymentUris } from './payment-uri.js';
import { decodeQrDataUrl } from './testing/decode.js';

const base = { extraId: null, smartContract: null, chainId: null } as const;
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const MERCHANT = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';

/**
 * EIP-681, the parts we emit, written from the grammar:
 *   request = "ethereum" ":" ["pay-"] target_address ["@" chain_id] ["/" function_name] ["?" parameters]
 *   parameters = parameter *("&" parameter); parameter = key "=" value
 * Integers must be plain digits here: we never emit exponents or decimals.
 */
function parseEip681(uri: string): {
  target: string;
  chainId: number;
  fn: string | null;
  params: Map<string, string>;
} {
  const m = /^ethereum:(?:pay-)?(0x[0-9a-fA-F]{40})(?:@([1-9]\d*))?(?:\/([A-Za-z_]\w*))?(?:\?(.*))?$/.exec(uri);
  if (!m) throw new Error(`not an EIP-681 URI: ${uri}`);
  const params = new Map<string, string>();
  for (const pair of (m[4] ?? '').split('&').filter(Boolean)) {
    const [key, value, ...rest] = pair.split('=');
    if (!key || value === undefined || rest.length > 0) throw new Error(`bad parameter ${pair}`);
    if (params.has(key)) throw new Error(`repeated parameter ${key}`);
    params.set(key, value);
  }
  return { target: m[1] as string, chainId: Number(m[2] ?? 1), fn: m[3] ?? null, params };
}

function digitsOnly(value: string | undefined): bigint {
  expect(value).toMatch(/^\d+$/);
  return BigInt(value as string);
}

describe('paymentUris: BIP21 for Bitcoin-like chains', () => {
  it.each([
    ['btc', 'bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['ltc', 'litecoin', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea'],
    ['doge', 'dogecoin', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
  ])('%s uses the %s: scheme with the exact amount digits', (network, scheme, address) => {
    const uris = paymentUris({ ...base, family: 'utxo', network, address, amountText: '0.00123457', units: 123457n });
    expect(uris).toEqual({ payload: `${scheme}:${address}`, amountPayload: `${scheme}:${address}?amount=0.00123457` });
  });

  it('never reformats the amount text (no float, no exponent, no trimming)', () => {
    for (const amountText of ['0.00000001', '21000000', '0.1', '123456789.12345678', '0.000001']) {
      const { amountPayload } = paymentUris({
        ...base,
        family: 'utxo',
        network: 'btc',
        address: 'bc1q',
        amountText,
        units: 1n,
      });
      expect(amountPayload.split('?amount=')[1]).toBe(amountText);
    }
  });

  it('refuses a network without a known scheme and amount text that is not a plain decimal', () => {
    const input: PaymentUriInput = {
      ...base,
      family: 'utxo',
      network: 'bch',
      address: 'q',
      amountText: '1',
      units: 1n,
    };
    expect(() => paymentUris(input)).toThrow(/bch/);
    expect(() => paymentUris({ ...input, network: 'btc', amountText: '1e-8' })).toThrow(/decimal/);
    expect(() => paymentUris({ ...input, network: 'btc', amountText: '0,5' })).toThrow(/decimal/);
  });
});

describe('paymentUris: EIP-681 for EVM chains', () => {
  it('native coin: target is the address, value is the integer wei', () => {
    const units = 1_234_567_890_123_456_789n;
    const uris = paymentUris({
      ...base,
      family: 'evm',
      network: 'eth',
      address: MERCHANT,
      amountText: '1.234567890123456789',
      units,
      chainId: 1,
    });
    expect(uris.payload).toBe(`ethereum:${MERCHANT}@1`);
    expect(uris.amountPayload).toBe(`ethereum:${MERCHANT}@1?value=1234567890123456789`);
    const parsed = parseEip681(uris.amountPayload);
    expect(getAddress(parsed.target)).toBe(MERCHANT);
    expect(parsed.chainId).toBe(1);
    expect(parsed.fn).toBeNull();
    expect(digitsOnly(parsed.params.get('value'))).toBe(units);
  });

  it('token: target is the contract, transfer(address, uint256) carries recipient and units', () => {
    const uris = paymentUris({
      ...base,
      family: 'evm',
      network: 'bsc',
      address: MERCHANT,
      amountText: '12.345',
      units: 12_345_000n,
      smartContract: USDT,
      chainId: 56,
    });
    expect(uris.payload).toBe(`ethereum:${USDT}@56/transfer?address=${MERCHANT}`);
    expect(uris.amountPayload).toBe(`${uris.payload}&uint256=12345000`);
    const parsed = parseEip681(uris.amountPayload);
    expect(getAddress(parsed.target)).toBe(USDT);
    expect(parsed.chainId).toBe(56);
    expect(parsed.fn).toBe('transfer');
    expect(getAddress(parsed.params.get('address') as string)).toBe(MERCHANT);
    expect(digitsOnly(parsed.params.get('uint256'))).toBe(12_345_000n);
    const bare = parseEip681(uris.payload);
    expect(bare.params.has('uint256')).toBe(false);
  });

  it('keeps every digit of amounts beyond 2^53', () => {
    const units = 2n ** 200n + 7n;
    const { amountPayload } = paymentUris({
      ...base,
      family: 'evm',
      network: 'base',
      address: MERCHANT,
      amountText: '1',
      units,
      smartContract: USDT,
      chainId: 8453,
    });
    expect(digitsOnly(parseEip681(amountPayload).params.get('uint256'))).toBe(units);
  });

  it('refuses an EVM network without chain id', () => {
    expect(() =>
      paymentUris({ ...base, family: 'evm', network: 'eth', address: MERCHANT, amountText: '1', units: 1n }),
    ).toThrow(/chain id/);
  });
});

describe('evmTransfer: the transaction a browser wallet sends, from the same input as the EIP-681 URI', () => {
  const evm = { ...base, family: 'evm', network: 'eth', address: MERCHANT, amountText: '12.345' } as const;

  it('native coin: exactly the value in wei to the payment address, no call data', () => {
    const input = { ...evm, units: 12_345_000_000_000_000_000n, chainId: 1 };
    expect(evmTransfer(input)).toEqual({ chainId: 1, to: MERCHANT, value: input.units, data: null });
    expect(paymentUris(input).amountPayload).toBe(`ethereum:${MERCHANT}@1?value=${input.units}`);
  });

  it('token: transfer(address,uint256) to the contract, 68 bytes as viem encodes them, no value', () => {
    for (const units of [12_345_000n, 1n, 2n ** 256n - 1n]) {
      const tx = evmTransfer({ ...evm, units, smartContract: USDT, chainId: 56 });
      const reference = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [MERCHANT, units] });
      expect(tx).toEqual({ chainId: 56, to: USDT, value: 0n, data: reference });
      expect((tx.data?.length ?? 0) - 2).toBe(68 * 2);
    }
  });

  it('refuses an EVM network without chain id, like the URI', () => {
    expect(() => evmTransfer({ ...evm, units: 1n })).toThrow(/chain id/);
  });
});

describe('paymentUris: other chains', () => {
  it('TRON: tron:ADDR?amount=..., tokens add token=CONTRACT (kept in the payload without amount)', () => {
    const address = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
    const input = {
      ...base,
      family: 'tron',
      network: 'trx',
      address,
      amountText: '10.25',
      units: 10_250_000n,
    } as const;
    expect(paymentUris(input)).toEqual({ payload: `tron:${address}`, amountPayload: `tron:${address}?amount=10.25` });
    const contract = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(paymentUris({ ...input, smartContract: contract })).toEqual({
      payload: `tron:${address}?token=${contract}`,
      amountPayload: `tron:${address}?amount=10.25&token=${contract}`,
    });
  });

  it('Solana Pay: solana:ADDR?amount=..., SPL tokens add spl-token=MINT', () => {
    const address = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk';
    const input = {
      ...base,
      family: 'solana',
      network: 'sol',
      address,
      amountText: '0.5',
      units: 500_000_000n,
    } as const;
    expect(paymentUris(input)).toEqual({ payload: `solana:${address}`, amountPayload: `solana:${address}?amount=0.5` });
    const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    const token = paymentUris({ ...input, smartContract: mint });
    expect(token).toEqual({
      payload: `solana:${address}?spl-token=${mint}`,
      amountPayload: `solana:${address}?amount=0.5&spl-token=${mint}`,
    });
    const query = new URL(token.amountPayload).searchParams;
    expect(query.get('amount')).toBe('0.5');
    expect(query.get('spl-token')).toBe(mint);
  });

  it('XRP: the destination tag is in both payloads, the amount only in one', () => {
    const address = 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh';
    const input = { ...base, family: 'xrp', network: 'xrp', address, amountText: '25.5', units: 25_500_000n } as const;
    expect(paymentUris({ ...input, extraId: '4294967295' })).toEqual({
      payload: `xrp:${address}?dt=4294967295`,
      amountPayload: `xrp:${address}?dt=4294967295&amount=25.5`,
    });
    expect(paymentUris(input)).toEqual({ payload: `xrp:${address}`, amountPayload: `xrp:${address}?amount=25.5` });
  });
});

describe('paymentUris through a QR code', () => {
  it('every payload survives encoding and an independent decode', () => {
    const inputs: PaymentUriInput[] = [
      {
        ...base,
        family: 'utxo',
        network: 'btc',
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        amountText: '0.00123457',
        units: 123457n,
      },
      {
        ...base,
        family: 'evm',
        network: 'eth',
        address: MERCHANT,
        amountText: '12.345',
        units: 12_345_000n,
        smartContract: USDT,
        chainId: 1,
      },
      {
        ...base,
        family: 'xrp',
        network: 'xrp',
        address: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh',
        amountText: '25.5',
        units: 25_500_000n,
        extraId: '12345',
      },
    ];
    for (const input of inputs) {
      const { payload, amountPayload } = paymentUris(input);
      expect(decodeQrDataUrl(qrSvgDataUrl(payload))).toBe(payload);
      expect(decodeQrDataUrl(qrSvgDataUrl(amountPayload))).toBe(amountPayload);
    }
  });
});
