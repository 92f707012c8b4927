import type { Page } from '@playwright/test';
import { ANVIL_CHAIN_ID, ANVIL_FUNDED, type Anvil } from '../core/chains/evm/testing/anvil.js';

/** One wallet the test wallet announces (EIP-6963), and how it behaves. */
export interface TestWalletOptions {
  wallets: { name: string; uuid: string }[];
  /** The account the wallet answers with; anvil has it unlocked, so anvil signs. @default ANVIL_FUNDED */
  account?: string;
  /** Chain the wallet starts on (hex). @default anvil's */
  startChainId?: string;
  /** Answer eth_sendTransaction with EIP-1193 4001 (the customer pressed Reject). */
  reject?: boolean;
  /** Hold every request until `window.__releaseWallet()` (a customer still reading the wallet's prompt). */
  hold?: boolean;
  /** Announce nothing, but be `window.ethereum` (an older injected wallet). */
  injectedOnly?: boolean;
}

export interface WalletCall {
  wallet: string;
  method: string;
  params: unknown[] | null;
  at: number;
}

/**
 * Injects a test wallet before any page script runs, as an extension would: it announces itself by EIP-6963 (or
 * is only `window.ethereum`), keeps its own account and chain, and forwards everything else to the real anvil
 * (through the test process: a page's Content-Security-Policy would not let it reach the node, and an extension
 * is not bound by it either). Every request lands in `window.__walletCalls`.
 */
export async function injectTestWallet(page: Page, anvil: Anvil, options: TestWalletOptions): Promise<void> {
  await page.exposeFunction('__anvilRpc', async (method: string, params: unknown[] | null) => {
    const res = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
    });
    return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  });
  await page.addInitScript(
    (o) => {
      type Rpc = (
        m: string,
        p: unknown[] | null,
      ) => Promise<{ result?: unknown; error?: { code: number; message: string } }>;
      const w = window as unknown as {
        __walletCalls: { wallet: string; method: string; params: unknown[] | null; at: number }[];
        __releaseWallet: () => void;
        __anvilRpc: Rpc;
        ethereum?: unknown;
      };
      w.__walletCalls = [];
      let release: () => void = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      w.__releaseWallet = release;
      const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
      const provider = (wallet: string) => {
        let chainId = o.startChainId;
        return {
          async request({ method, params }: { method: string; params?: unknown[] }) {
            w.__walletCalls.push({ wallet, method, params: params ?? null, at: performance.now() });
            if (o.hold) await held;
            switch (method) {
              case 'eth_requestAccounts':
              case 'eth_accounts':
                return [o.account];
              case 'eth_chainId':
                return chainId;
              case 'wallet_switchEthereumChain': {
                const want = (params as [{ chainId: string }])[0].chainId;
                if (BigInt(want) !== BigInt(o.anvilChainId)) throw rpcError(4902, 'Unrecognized chain ID');
                chainId = want;
                return null;
              }
              case 'eth_sendTransaction':
                if (o.reject) throw rpcError(4001, 'User rejected the request.');
                break;
            }
            const r = await w.__anvilRpc(method, params ?? null);
            if (r.error) throw rpcError(r.error.code, r.error.message);
            return r.result;
          },
        };
      };
      if (o.injectedOnly) {
        w.ethereum = provider('injected');
        return;
      }
      for (const x of o.wallets) {
        const detail = Object.freeze({
          info: {
            uuid: x.uuid,
            name: x.name,
            icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
            rdns: `example.${x.uuid}`,
          },
          provider: provider(x.name),
        });
        const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
        window.addEventListener('eip6963:requestProvider', announce);
        announce();
      }
    },
    {
      wallets: options.wallets,
      account: options.account ?? ANVIL_FUNDED,
      startChainId: options.startChainId ?? `0x${ANVIL_CHAIN_ID.toString(16)}`,
      anvilChainId: `0x${ANVIL_CHAIN_ID.toString(16)}`,
      reject: options.reject ?? false,
      hold: options.hold ?? false,
      injectedOnly: options.injectedOnly ?? false,
    },
  );
}

/** The requests the test wallet got so far. */
export function walletCalls(page: Page): Promise<WalletCall[]> {
  return page.evaluate(() => (window as unknown as { __walletCalls: WalletCall[] }).__walletCalls);
}
