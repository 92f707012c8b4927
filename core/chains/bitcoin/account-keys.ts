import { ok } from '../../errors.js';
import type { AccountKeyScheme } from '../family.js';
import { parseUtxoXpub, utxoAddressAt } from './utxo.js';
import { accountPath, utxoChains } from './utxo-params.js';

/**
 * One account key per Bitcoin-family chain (BIP84 for BTC and LTC, BIP44 for Dogecoin), read for the network of the
 * chain's node: checked against its network, script type and account depth (core/chains/bitcoin/utxo.ts).
 */
export const utxoAccountKeys: readonly AccountKeyScheme[] = utxoChains.map((chain) => ({
  chain,
  perNetwork: true,
  serves: (asset) => asset.family === 'utxo' && asset.network === chain,
  path: (net) => accountPath(chain, net),
  parse(text, net) {
    const parsed = parseUtxoXpub(text, chain, net);
    if (!parsed.ok) return parsed;
    return ok({ xpub: parsed.value.xpub, depth: parsed.value.key.depth, pastedAs: parsed.value.pastedAs });
  },
  addressAt: (xpub, net, index) => utxoAddressAt(xpub, chain, net, index),
}));
