import { describe, expect, it } from 'vitest';
import type { CheckoutWallet } from '../types.js';
import { type Eip1193Provider, failureOf, sendPayment } from './send-payment.js';

/*
 * The wallet is the customer's (an extension), not ours: these runs stand in for wallets that behave in ways the
 * browser runs (e2e/wallet.spec.ts, a test wallet on a real anvil) do not reach: no answer, a refused switch, a
 * chain to add, a node's own "insufficient funds".
 */

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const native: CheckoutWallet = {
  chain_id: '0x7a69',
  to: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  value: '0xde0b6b3a7640000',
  data: null,
  explorer_url: null,
  add_chain: null,
};

/** A wallet answering from a table of handlers; every request is recorded. */
function wallet(handlers: Record<string, (params: unknown[] | undefined) => unknown>) {
  const calls: { method: string; params: unknown[] | undefined }[] = [];
  let chainId = '0x7a69';
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      calls.push({ method, params });
      const h = handlers[method];
      if (h) return h(params);
      switch (method) {
        case 'eth_requestAccounts':
          return [ACCOUNT];
        case 'eth_chainId':
          return chainId;
        case 'eth_getBalance':
          return '0xffffffffffffffffff';
        case 'eth_sendTransaction':
          return `0x${'ab'.repeat(32)}`;
      }
      throw Object.assign(new Error(`unexpected ${method}`), { code: -32601 });
    },
  };
  return {
    provider,
    calls,
    setChain(id: string) {
      chainId = id;
    },
  };
}

const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });

async function why(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return failureOf(e);
  }
  return 'sent';
}

describe('sendPayment', () => {
  it('sends exactly the transaction of the payment view from the wallet’s account', async () => {
    const w = wallet({});
    expect(await sendPayment(w.provider, native)).toBe(`0x${'ab'.repeat(32)}`);
    expect(w.calls.at(-1)).toEqual({
      method: 'eth_sendTransaction',
      params: [{ from: ACCOUNT, to: native.to, value: native.value }],
    });
  });

  it('a wallet that never answers times out, and nothing is sent', async () => {
    const w = wallet({ eth_requestAccounts: () => new Promise(() => {}) });
    expect(await why(sendPayment(w.provider, native, 50))).toBe('timeout');
    expect(w.calls.map((c) => c.method)).toEqual(['eth_requestAccounts']);
  });

  it('a wallet that refuses to switch chains (or cannot) gets the switch message', async () => {
    const refuses = wallet({
      eth_chainId: () => '0x1',
      wallet_switchEthereumChain: () => {
        throw rpcError(-32603, 'Unsupported');
      },
    });
    expect(await why(sendPayment(refuses.provider, native))).toBe('switch');
    const lies = wallet({ eth_chainId: () => '0x1', wallet_switchEthereumChain: () => null });
    expect(await why(sendPayment(lies.provider, native))).toBe('switch');
    expect(lies.calls.map((c) => c.method)).not.toContain('eth_sendTransaction');
  });

  it('a wallet lacking the chain adds it when the service offers a public RPC, and not otherwise', async () => {
    const lacks = () => {
      const w = wallet({
        wallet_switchEthereumChain: () => {
          throw rpcError(4902, 'Unrecognized chain');
        },
        wallet_addEthereumChain: () => {
          w.setChain('0x7a69');
          return null;
        },
      });
      w.setChain('0x1');
      return w;
    };
    const add_chain = { chainId: '0x7a69', chainName: 'Ethereum', rpcUrls: ['https://rpc.example'] };
    const w = lacks();
    expect(await why(sendPayment(w.provider, { ...native, add_chain }))).toBe('sent');
    expect(w.calls.find((c) => c.method === 'wallet_addEthereumChain')?.params).toEqual([add_chain]);
    expect(await why(sendPayment(lacks().provider, native))).toBe('switch');
  });

  it('a rejection anywhere (4001) is the customer’s no', async () => {
    const atAccounts = wallet({
      eth_requestAccounts: () => {
        throw rpcError(4001, 'User rejected');
      },
    });
    expect(await why(sendPayment(atAccounts.provider, native))).toBe('rejected');
    const atSwitch = wallet({
      eth_chainId: () => '0x1',
      wallet_switchEthereumChain: () => {
        throw rpcError(4001, 'User rejected');
      },
    });
    expect(await why(sendPayment(atSwitch.provider, native))).toBe('rejected');
  });

  it('too little native coin is found before sending; a node’s "insufficient funds" means the same', async () => {
    const poor = wallet({ eth_getBalance: () => '0x1' });
    expect(await why(sendPayment(poor.provider, native))).toBe('balance');
    expect(poor.calls.map((c) => c.method)).not.toContain('eth_sendTransaction');
    const gas = wallet({
      eth_sendTransaction: () => {
        throw rpcError(-32003, 'insufficient funds for gas * price + value');
      },
    });
    expect(await why(sendPayment(gas.provider, native))).toBe('balance');
    const other = wallet({
      eth_sendTransaction: () => {
        throw rpcError(-32603, 'Internal error');
      },
    });
    expect(await why(sendPayment(other.provider, native))).toBe('failed');
  });
});
