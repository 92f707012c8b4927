import type { ApiDeps } from '../api-kit/deps.js';
import { EvmChain } from '../core/chains/evm/evm-chain.js';
import { chainKey } from '../core/chains/types.js';
import type { Payment } from '../core/payments/payment.js';
import { evmTransfer, type PaymentUriInput } from '../core/qr/payment-uri.js';

const hex = (n: bigint | number) => `0x${n.toString(16)}`;

/**
 * What a browser wallet needs to pay a payment (docs/architecture.md "Wallet pay"), or null when wallet pay is not offered:
 * test mode (the sandbox chain is no chain a wallet knows), other families, a network not configured live.
 * The transaction is built from `asked`, the very input of the payment's `payment_uri`, so both ask for the same
 * transfer. Quantities are hex as EIP-1193 takes them. `add_chain` is EIP-3085's `wallet_addEthereumChain`
 * parameter, only with a public `walletRpcUrl` (the node's `rpcUrl` may carry a key and never leaves the server).
 */
export function walletView(deps: Pick<ApiDeps, 'chains' | 'catalog'>, p: Payment, asked: PaymentUriInput) {
  if (p.mode !== 'live' || asked.family !== 'evm') return null;
  const chain = deps.chains.get(chainKey('live', p.network));
  if (!(chain instanceof EvmChain)) return null;
  const tx = evmTransfer(asked);
  const { walletRpcUrl, explorerUrl, nativeAsset } = chain.config;
  const native = deps.catalog.get(nativeAsset);
  return {
    chain_id: hex(tx.chainId),
    to: tx.to,
    value: hex(tx.value),
    data: tx.data,
    explorer_url: explorerUrl,
    add_chain:
      walletRpcUrl && native
        ? {
            chainId: hex(tx.chainId),
            chainName: native.name,
            // ETH, ETHBASE, BNBBSC, POL: the coin's ticker is the code's first three letters on every EVM network.
            nativeCurrency: { name: native.name, symbol: native.code.slice(0, 3), decimals: native.decimals },
            rpcUrls: [walletRpcUrl],
            ...(explorerUrl ? { blockExplorerUrls: [explorerUrl] } : {}),
          }
        : null,
  };
}
