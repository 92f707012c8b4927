import type { CheckoutWallet } from '../types.js';

/** An EIP-1193 provider: all a wallet must offer. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** Why a wallet payment did not go out; each has its own words (widget/wallet/en.ts). */
export type WalletFailure = 'rejected' | 'balance' | 'switch' | 'timeout' | 'failed';

/** How long one wallet request may take: the customer reads and confirms in the wallet meanwhile. @default 120 s */
export const WALLET_TIMEOUT_MS = 120_000;

/** ERC-20 `balanceOf(address)` selector. */
const BALANCE_OF = '0x70a08231';

const failure = (why: WalletFailure) => Object.assign(new Error(why), { why });

/** EIP-1193 error code of a wallet's refusal (4001 rejected, 4902 unknown chain), when it has one. */
const codeOf = (e: unknown) => (e as { code?: unknown } | null)?.code;

/** What a failed request means for the customer: a refusal, too little money, or something else. */
export function failureOf(e: unknown): WalletFailure {
  const why = (e as { why?: WalletFailure } | null)?.why;
  if (why) return why;
  if (codeOf(e) === 4001) return 'rejected';
  // Nodes and wallets word it differently: "insufficient funds for gas * price + value", "transfer amount
  // exceeds balance".
  return /insufficient funds|exceeds balance/i.test(String((e as { message?: unknown } | null)?.message))
    ? 'balance'
    : 'failed';
}

/** A request to the wallet that gives up after `timeoutMs` (the customer may have walked away from the prompt). */
type Request = <T>(method: string, params?: unknown[]) => Promise<T>;

/**
 * Asks the wallet for its account and moves it to `chain` (adding the chain when the wallet lacks it and the service
 * offers `add_chain`). Returns the account and the timed request function for what follows. Wallet pay and the
 * dashboard's sweep both start here.
 */
export async function connectWallet(
  provider: Eip1193Provider,
  chain: { chain_id: string; add_chain?: CheckoutWallet['add_chain'] | undefined },
  timeoutMs = WALLET_TIMEOUT_MS,
): Promise<{ from: string; request: Request }> {
  const request: Request = <T>(method: string, params?: unknown[]) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(failure('timeout')), timeoutMs);
      provider.request(params ? { method, params } : { method }).then(
        (r) => {
          clearTimeout(timer);
          resolve(r as T);
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
  const [from] = await request<string[]>('eth_requestAccounts');
  if (!from) throw failure('rejected');
  const onChain = async () => BigInt(await request<string>('eth_chainId')) === BigInt(chain.chain_id);
  if (!(await onChain())) {
    try {
      await request('wallet_switchEthereumChain', [{ chainId: chain.chain_id }]);
    } catch (e) {
      if (codeOf(e) === 4001) throw e;
      if (codeOf(e) !== 4902 || !chain.add_chain) throw failure('switch');
      await request('wallet_addEthereumChain', [chain.add_chain]);
    }
    // Some wallets answer the switch before they moved, or add a chain without moving to it.
    if (!(await onChain())) throw failure('switch');
  }
  return { from, request };
}

/**
 * Pays with a wallet, as the service built the transaction (`wallet` of the payment view): asks for the account,
 * moves the wallet to the payment's chain (adding it when the wallet lacks it and the service offers it), checks
 * the balance, then sends exactly `value` to `to` with `data`. Returns the transaction hash; throws an error with
 * `why` (a WalletFailure) or the wallet's own error (see failureOf).
 *
 * @example
 * const hash = await sendPayment(provider, payment.wallet);
 */
export async function sendPayment(
  provider: Eip1193Provider,
  w: CheckoutWallet,
  timeoutMs = WALLET_TIMEOUT_MS,
): Promise<string> {
  const { from, request } = await connectWallet(provider, w, timeoutMs);
  // The balance first: a clear message rather than the wallet's own, which varies (or a failed send on chain).
  // Token call data is 0x, the selector (8 hex digits), the recipient's word (64), the units' word (64).
  const has = BigInt(
    w.data
      ? await request<string>('eth_call', [
          { to: w.to, data: `${BALANCE_OF}${from.slice(2).toLowerCase().padStart(64, '0')}` },
          'latest',
        ])
      : await request<string>('eth_getBalance', [from, 'latest']),
  );
  if (has < BigInt(w.data ? `0x${w.data.slice(74)}` : w.value)) throw failure('balance');
  return request<string>('eth_sendTransaction', [{ from, to: w.to, value: w.value, ...(w.data && { data: w.data }) }]);
}
