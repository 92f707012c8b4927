import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { encodeAddress, hashToScalar, viewKeyHex } from '../monero.js';

/**
 * A Monero wallet's keys, random: spend key b (never given to the service), view key a, and the primary address
 * (B, A) on mainnet's network byte, as a merchant's wallet would show them.
 */
export function randomWalletKeys(): { address: string; viewKey: string; spendKey: string } {
  const G = ed25519.Point.BASE;
  const b = hashToScalar(randomBytes(32));
  const a = hashToScalar(randomBytes(32));
  const address = encodeAddress({
    net: 'main',
    kind: 'standard',
    spendPub: G.multiply(b).toBytes(),
    viewPub: G.multiply(a).toBytes(),
  });
  return { address, viewKey: viewKeyHex(a), spendKey: viewKeyHex(b) };
}
