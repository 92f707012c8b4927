import type { Catalog } from '../../catalog/catalog.js';
import type { Payment } from '../../payments/payment.js';
import { evmTransfer, type PaymentUriInput } from '../../qr/payment-uri.js';
import type { WalletPayRequest } from '../family.js';
import type { ChainRegistry } from '../registry.js';
import { chainKey } from '../types.js';
import { EvmChain } from './evm-chain.js';

const hex = (n: bigint | number) => `0x${n.toString(16)}`;

/**
 * The EIP-1193 transaction a browser wallet sends to pay a live EVM payment, or null when its network is not
 * configured live. The transaction is built from `asked`, the very input of the payment's `payment_uri`, so both ask
 * for the same transfer. Quantities are hex as EIP-1193 takes them. `add_chain` is EIP-3085's
 * `wallet_addEthereumChain` parameter, only with a public `walletRpcUrl` (the node's `rpcUrl` may carry a key and
 * never leaves the server).
 */
export function evmWalletPay(
  chains: ChainRegistry,
  catalog: Catalog,
  p: Payment,
  asked: PaymentUriInput,
): WalletPayRequest | null {
  const chain = chains.get(chainKey('live', p.network));
  if (!(chain instanceof EvmChain)) return null;
  const tx = evmTransfer(asked);
  const { walletRpcUrl, explorerUrl, nativeAsset } = chain.config;
  const native = catalog.get(nativeAsset);
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
