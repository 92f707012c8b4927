import { isValidAddress } from '../catalog/catalog.js';
import type { Asset } from '../catalog/types.js';
import { families } from '../chains/families.js';
import { err, invalid, ok, type Result } from '../errors.js';

/**
 * The customer's refund address for `asset`, checked for its network and put in the form the watchers match
 * (EIP-55 for EVM, lower case for bech32): another network's address, a bad checksum or an integrated Monero address
 * is a 422 on `address`. Past the asset's form, the family serving the asset checks it (its `checkAddress`).
 *
 * @example
 * refundDestination(eth, '0xd8da6bf26964af9d7eed9e03e53415d37aa96045') // ok('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045')
 */
export function refundDestination(asset: Asset, text: string): Result<string> {
  const address = text.trim();
  const refuse = (why: string) => err(invalid('address', `Not a ${asset.network} address for ${asset.code}: ${why}`));
  if (!isValidAddress(asset, address)) return refuse('its form is not one of this network');
  const family = families.find((f) => f.assetFamilies.includes(asset.family));
  const checked = family?.checkAddress?.(address) ?? { ok: true, address };
  return checked.ok ? ok(checked.address) : refuse(checked.why);
}
