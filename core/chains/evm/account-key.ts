import { ok } from '../../errors.js';
import type { AccountKeyScheme } from '../family.js';
import { evmAddressAt, parseXpub } from './hd.js';

/** The one EVM account key (m/44'/60'/0'): an address is the same on every EVM network, so the key has no network. */
export const evmAccountKey: AccountKeyScheme = {
  chain: 'evm',
  perNetwork: false,
  serves: (asset) => asset.family === 'evm',
  path: () => "m/44'/60'/0'",
  parse(text) {
    const parsed = parseXpub(text);
    if (!parsed.ok) return parsed;
    return ok({ xpub: parsed.value.publicExtendedKey, depth: parsed.value.depth, pastedAs: null });
  },
  addressAt: (xpub, _net, index) => evmAddressAt(xpub, index),
};
