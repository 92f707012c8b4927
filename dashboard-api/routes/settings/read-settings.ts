import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { getXpub, type KeyChain, keyAddressAt, keyPath } from '../../../core/addresses/xpubs.js';
import { accountKeys, type KeyNet, viewKeys } from '../../../core/chains/families.js';
import { getPayout } from '../../../core/forwarders/payouts.js';
import { allowedOrigins, type Merchant } from '../../../core/merchants/merchants.js';
import { fiatCodes } from '../../../core/money/fiat.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { forwarderNetworks } from '../../forwarder-networks.js';

/**
 * The first receive addresses of an account key (children 0/0, 0/1, 0/2), to compare with the wallet: EVM, or a
 * Bitcoin-family chain read for `net` (the configured node's network).
 */
export function firstAddresses(xpub: string, chain: KeyChain = 'evm', net: KeyNet = 'main') {
  return [0, 1, 2].map((index) => ({ index, path: `0/${index}`, address: keyAddressAt(chain, xpub, net, index) }));
}

/** The network a chain's keys are read for: its node's (CHAINS_CONFIG), mainnet without one; EVM keys have none. */
export function keyNet(x: DashCtx, chain: KeyChain): KeyNet {
  return chain === 'evm' ? 'main' : (x.deps.utxoNetOf(chain) ?? 'main');
}

/** A Bitcoin-family chain's registered key as Settings shows it, or only its account path when none is set. */
async function utxoKeyView(x: DashCtx, merchantId: string, chain: KeyChain) {
  const net = keyNet(x, chain);
  const key = await getXpub(x.deps.db, merchantId, chain);
  return {
    chain,
    network: net,
    path: keyPath(chain, net),
    xpub: key?.xpub ?? null,
    addresses: key ? firstAddresses(key.xpub, chain, net) : [],
    next_index: key?.nextIndex ?? 0,
  };
}

/**
 * The settings page's data: shop name, mode, the drop-in's allowed origins, and the registered EVM xpub with its
 * first addresses and the next payment's index (its own counter), the same for each Bitcoin-family chain; the EVM payout
 * address and the networks where it wins over the xpub (those with a forwarder factory).
 */
export async function settingsView(x: DashCtx, m: Merchant) {
  const [key, payout, monero, utxoKeys] = await Promise.all([
    getXpub(x.deps.db, m.id, 'evm'),
    getPayout(x.deps.db, m.id, 'evm'),
    viewKeys.read(x.deps.db, m.id),
    Promise.all(accountKeys.filter((k) => k.perNetwork).map((k) => utxoKeyView(x, m.id, k.chain))),
  ]);
  return {
    merchant_id: m.id,
    sub_partner_id: m.sub_partner_id,
    name: m.name,
    mode: m.mode,
    allowed_origins: allowedOrigins(m),
    default_currency: m.default_currency,
    // The list the settings form offers (core/money/fiat.ts).
    price_currencies: fiatCodes,
    xpub: key
      ? { family: 'evm' as const, xpub: key.xpub, addresses: firstAddresses(key.xpub), next_index: key.nextIndex }
      : null,
    // Bitcoin, Litecoin and Dogecoin: one account key each (the admin CLI's `xpub set --chain`).
    utxo_keys: utxoKeys,
    payout: payout ? { chain: 'evm' as const, address: payout } : null,
    // The view key is a secret: never sent back, only what the merchant checks against the wallet.
    monero: monero
      ? { address: monero.address, first_subaddress: monero.addressAt(1), next_index: monero.nextIndex }
      : null,
    forwarder_networks: forwarderNetworks(x.deps).map((n) => n.config.network),
  };
}

/** GET /merchants/{id}/settings: the settings page's data (settingsView). */
export function registerReadSettings(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/settings', async (c) => ok(c, await settingsView(x, c.get('merchant'))));
}
