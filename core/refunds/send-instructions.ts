import type { Catalog } from '../catalog/catalog.js';
import { fromUnits } from '../money/decimal.js';
import { evmTransfer, paymentUris } from '../qr/payment-uri.js';
import type { Refund } from './refund.js';

/**
 * What the merchant's wallet must send for a refund, never signed here: the payment URI with the exact amount (BIP21
 * for the Bitcoin family, `monero:`, EIP-681 for EVM) and, on EVM, the transaction itself (to, value, data) for a
 * browser wallet's `eth_sendTransaction` or any wallet. The same builders as a payment's QR codes, so the digits of the
 * URI, the QR and the API are the same. Null until the merchant confirmed the address, and once cancelled.
 *
 * @example
 * refundSendInstructions(catalog, refund)?.uri // 'bitcoin:bc1q...?amount=0.000015'
 */
export function refundSendInstructions(catalog: Catalog, r: Refund) {
  const asset = catalog.get(r.asset);
  if (!asset || r.address === null || r.address_confirmed_at === null || r.status === 'cancelled') return null;
  const units = BigInt(r.amount_units);
  const input = {
    family: asset.family,
    network: asset.network,
    address: r.address,
    amountText: fromUnits(units, r.decimals),
    units,
    extraId: null,
    smartContract: asset.smartContract,
    chainId: asset.chainId,
  };
  const tx = asset.family === 'evm' ? evmTransfer(input) : null;
  return {
    uri: paymentUris(input).amountPayload,
    evm_transaction: tx ? { chain_id: tx.chainId, to: tx.to, value: tx.value.toString(), data: tx.data ?? '0x' } : null,
  };
}

export type RefundSendInstructions = ReturnType<typeof refundSendInstructions>;
