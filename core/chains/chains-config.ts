import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { liveNetworks } from '../catalog/availability.js';
import type { Asset } from '../catalog/types.js';
import {
  type BitcoinNetworkConfig,
  isUtxoNetwork,
  toBitcoinNetworkConfig,
  utxoNetworkSchemas,
} from './bitcoin/config.js';
import { ChainsConfigError, type EvmNetworkConfig, parseChainsConfig } from './evm/config.js';
import { type MoneroNetworkConfig, moneroNetworkSchema, toMoneroNetworkConfig } from './monero/config.js';

/** What a mistake in CHAINS_CONFIG throws: one line naming its place. */
export { ChainsConfigError };

/** The live networks of CHAINS_CONFIG, by kind of node. */
export interface ChainsConfig {
  evm: EvmNetworkConfig[];
  /** Bitcoin-family networks (`btc`, `ltc`, `doge`): a Bitcoin Core-compatible node each. */
  utxo: BitcoinNetworkConfig[];
  /** `xmr`: the merchant's monerod, or null. */
  monero: MoneroNetworkConfig | null;
}

const fileSchema = z.strictObject({ networks: z.record(z.string(), z.unknown()) });

/**
 * Reads CHAINS_CONFIG: a JSON file whose `networks` key picks each entry's schema (`btc`, `ltc`, `doge`: a
 * Bitcoin-family node; any other: an EVM network checked against the catalog). A mistake is one line naming its place.
 *
 * @example
 * readChainsConfig('/etc/shop/chains.json', shippedAssets)
 * // { evm: [{ network: 'eth', chainId: 1, ... }], utxo: [{ network: 'ltc', chain: 'main', confirmations: 6, ... }] }
 */
export function readChainsConfig(path: string, assets: readonly Asset[]): ChainsConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ChainsConfigError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ChainsConfigError(`${path} is not valid JSON`);
  }
  return parseChainsFile(json, assets);
}

export function parseChainsFile(json: unknown, assets: readonly Asset[]): ChainsConfig {
  const file = fileSchema.safeParse(json);
  if (!file.success) {
    const issue = file.error.issues[0];
    throw new ChainsConfigError(`${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const evm: Record<string, unknown> = {};
  const utxo: BitcoinNetworkConfig[] = [];
  let monero: MoneroNetworkConfig | null = null;
  // Before any entry's fields: "confirmations: expected number" under `trx` would send an operator to fix fields of
  // a network that can never go live.
  const supported = liveNetworks(assets);
  for (const key of Object.keys(file.data.networks)) {
    if (supported.includes(key)) continue;
    const sandboxOnly = assets.some((a) => a.network === key);
    throw new ChainsConfigError(
      `networks.${key}: ${sandboxOnly ? 'test mode only (sandbox), no live network' : 'not a network of the catalog'}` +
        `; supported live networks: ${supported.join(', ')}`,
    );
  }
  for (const [key, entry] of Object.entries(file.data.networks)) {
    if (key === 'xmr') {
      const parsed = moneroNetworkSchema.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ChainsConfigError(`${['networks', key, ...(issue?.path ?? [])].join('.')}: ${issue?.message}`);
      }
      monero = toMoneroNetworkConfig(parsed.data);
      continue;
    }
    if (!isUtxoNetwork(key)) {
      evm[key] = entry;
      continue;
    }
    const parsed = utxoNetworkSchemas[key].safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = ['networks', key, ...(issue?.path ?? [])].join('.');
      throw new ChainsConfigError(`${where}: ${issue?.message ?? 'invalid'}`);
    }
    utxo.push(toBitcoinNetworkConfig(key, parsed.data));
  }
  return { evm: parseChainsConfig({ networks: evm }, assets), utxo, monero };
}
