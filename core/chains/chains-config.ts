import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { liveNetworks } from '../catalog/availability.js';
import type { Asset } from '../catalog/types.js';
import { ChainsConfigError } from './config-error.js';
import { type ChainsConfig, families } from './families.js';

export type { ChainsConfig };
/** What a mistake in CHAINS_CONFIG throws: one line naming its place. */
export { ChainsConfigError };

const fileSchema = z.strictObject({ networks: z.record(z.string(), z.unknown()) });

/**
 * Reads CHAINS_CONFIG: a JSON file whose `networks` keys are catalog networks; each entry goes to the family of its
 * network (core/chains/families.ts), whose descriptor reads it (`btc`, `ltc`, `doge`: a Bitcoin-family node; `xmr`:
 * monerod; `eth`, `bsc`, ...: an EVM network checked against the catalog). A mistake is one line naming its place.
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
  // Each entry goes to the family serving its network's assets; every family reads its part, empty or not.
  const familyOf = (network: string) =>
    families.find((f) => assets.some((a) => a.network === network && f.assetFamilies.includes(a.family)));
  for (const key of Object.keys(file.data.networks))
    if (!familyOf(key)) throw new ChainsConfigError(`networks.${key}: no chain family serves this network`);
  const config: Partial<ChainsConfig> = {};
  for (const f of families) {
    const own = Object.entries(file.data.networks).filter(([key]) => familyOf(key) === f);
    Object.assign(config, f.readConfig?.(Object.fromEntries(own), assets));
  }
  return config as ChainsConfig;
}
