import type { ChainFamily } from '../catalog/types.js';

/** What a payment URI is built from; `amountText` and `units` are the same amount, exact. */
export interface PaymentUriInput {
  family: ChainFamily;
  /** Network code from the catalog: btc, ltc, doge, eth, bsc, ... */
  network: string;
  address: string;
  /** Exact decimal text of the amount in coins, e.g. "0.00123457"; its digits go into the URI unchanged. */
  amountText: string;
  /** The same amount in base units (EIP-681 carries integers). */
  units: bigint;
  /** Destination tag / memo, for networks that have one (XRP). */
  extraId: string | null;
  /** Token contract or mint; null for the native coin. */
  smartContract: string | null;
  /** EVM chain id; required for the `evm` family. */
  chainId: number | null;
}

/** The QR payloads of one payment: without the amount (address only) and with it. */
export interface PaymentUris {
  payload: string;
  amountPayload: string;
}

/** BIP21 schemes of the Bitcoin-like networks we serve. */
const UTXO_SCHEMES: Readonly<Record<string, string>> = { btc: 'bitcoin', ltc: 'litecoin', doge: 'dogecoin' };

const DECIMAL_RE = /^\d+(\.\d+)?$/;

/**
 * Payment URIs per docs/architecture.md "Money rules": BIP21 for Bitcoin-like chains, EIP-681 for EVM, and the chain's
 * common scheme elsewhere (TRON `tron:`, Solana Pay `solana:`, XRP `xrp:` with `dt=`). Amount digits are
 * `amountText` (or `units` for EIP-681) verbatim, so the QR, `payment_uri` and the screen always agree.
 * Throws on inputs the catalog can never produce (unknown UTXO network, EVM without chain id, amount text
 * that is not a plain decimal): those are programming errors, not customer input.
 *
 * @example
 * paymentUris({ family: 'utxo', network: 'btc', address: 'bc1q...', amountText: '0.00123457', units: 123457n,
 *   extraId: null, smartContract: null, chainId: null }).amountPayload // "bitcoin:bc1q...?amount=0.00123457"
 */
export function paymentUris(input: PaymentUriInput): PaymentUris {
  const { address, amountText, units, extraId, smartContract } = input;
  if (!DECIMAL_RE.test(amountText)) throw new Error(`amount text "${amountText}" is not a plain decimal`);
  if (units < 0n) throw new Error('negative amount');
  switch (input.family) {
    case 'utxo': {
      const scheme = UTXO_SCHEMES[input.network];
      if (scheme === undefined) throw new Error(`no BIP21 scheme for network ${input.network}`);
      return { payload: `${scheme}:${address}`, amountPayload: `${scheme}:${address}?amount=${amountText}` };
    }
    case 'evm': {
      const tx = evmTransfer(input);
      if (tx.data === null) {
        const target = `ethereum:${tx.to}@${tx.chainId}`;
        return { payload: target, amountPayload: `${target}?value=${tx.value}` };
      }
      // ERC-20: the URI targets the token contract and calls transfer(address, uint256).
      const call = `ethereum:${tx.to}@${tx.chainId}/transfer?address=${address}`;
      return { payload: call, amountPayload: `${call}&uint256=${units}` };
    }
    case 'tron': {
      const token = smartContract === null ? '' : `token=${smartContract}`;
      return withQuery(`tron:${address}`, `amount=${amountText}`, token);
    }
    case 'solana': {
      const token = smartContract === null ? '' : `spl-token=${smartContract}`;
      return withQuery(`solana:${address}`, `amount=${amountText}`, token);
    }
    case 'monero':
      // The Monero URI scheme (monero-project's uri spec): the amount in XMR with its exact 12 decimals.
      return { payload: `monero:${address}`, amountPayload: `monero:${address}?tx_amount=${amountText}` };
    case 'xrp': {
      // The destination tag comes first so the address-only payload still routes the deposit to this payment.
      const tag = extraId === null ? '' : `dt=${encodeURIComponent(extraId)}`;
      const payload = tag === '' ? `xrp:${address}` : `xrp:${address}?${tag}`;
      return { payload, amountPayload: `${payload}${tag === '' ? '?' : '&'}amount=${amountText}` };
    }
  }
}

/** `base?amount&extra` and `base?extra`, leaving out empty parts. */
function withQuery(base: string, amount: string, extra: string): PaymentUris {
  return {
    payload: extra === '' ? base : `${base}?${extra}`,
    amountPayload: extra === '' ? `${base}?${amount}` : `${base}?${amount}&${extra}`,
  };
}

/** The EVM transaction that pays a payment: what its EIP-681 URI asks for, as a wallet's eth_sendTransaction takes it. */
export interface EvmTransfer {
  chainId: number;
  /** The payment address (native coin) or the token contract (ERC-20). */
  to: string;
  /** Wei sent along: the whole amount for the native coin, 0 for a token transfer. */
  value: bigint;
  /** `transfer(address,uint256)` call data for a token (68 bytes, hex), null for the native coin. */
  data: string | null;
}

/** Selector of ERC-20 `transfer(address,uint256)`: the first 4 bytes of its signature's keccak-256. */
const TRANSFER_SELECTOR = '0xa9059cbb';

/**
 * The transaction of an EVM payment, from the same input as its payment URI (paymentUris builds its EIP-681 URI
 * from this), so the QR and a browser wallet ask for the same transfer: native `value` in wei, or the token
 * contract called with `transfer(address, units)`.
 *
 * @example
 * evmTransfer({ family: 'evm', network: 'eth', address: '0xAb..', amountText: '25', units: 25000000n, extraId: null,
 *   smartContract: '0xdAC1..', chainId: 1 }) // { chainId: 1, to: '0xdAC1..', value: 0n, data: '0xa9059cbb000..' }
 */
export function evmTransfer(input: PaymentUriInput): EvmTransfer {
  if (input.chainId === null) throw new Error(`EVM network ${input.network} needs a chain id`);
  if (input.smartContract === null)
    return { chainId: input.chainId, to: input.address, value: input.units, data: null };
  const word = (hex: string) => hex.padStart(64, '0');
  const data = `${TRANSFER_SELECTOR}${word(input.address.slice(2).toLowerCase())}${word(input.units.toString(16))}`;
  return { chainId: input.chainId, to: input.smartContract, value: 0n, data };
}
