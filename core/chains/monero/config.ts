import { z } from 'zod';
import { ChainsConfigError, entryError } from '../config-error.js';

/**
 * CHAINS_CONFIG `networks.xmr`: the merchant's own monerod (its RPC, restricted or not; no wallet). The service reads
 * blocks and the transaction pool and recognises payments with each merchant's view key itself
 * (core/chains/monero/monero.ts), so no monero-wallet-rpc runs beside it.
 *
 * @example {"networks": {"xmr": {"rpcUrl": "http://127.0.0.1:18081", "confirmations": 10}}}
 */
export const moneroNetworkSchema = z.strictObject({
  /** monerod's RPC (`--rpc-bind-port`, 18081 on mainnet), over HTTP(S), without credentials. */
  rpcUrl: z.url({ protocol: /^https?$/ }).refine((u) => {
    const url = new URL(u);
    return url.username === '' && url.password === '';
  }, 'monerod RPC login is not supported: bind it to a private interface instead'),
  /** Blocks on top of and including the deposit's block before it counts (about 20 minutes). @default 10 */
  confirmations: z.number().int().min(1).max(1000).default(10),
  /** @default 2000 */
  pollIntervalMs: z.number().int().min(50).max(600_000).default(2000),
  /** Per RPC request. @default 10000 */
  timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
  /** A public block explorer for links shown to people; never the node. */
  explorerUrl: z.url({ protocol: /^https?$/ }).optional(),
});

export interface MoneroNetworkConfig {
  network: 'xmr';
  rpcUrl: string;
  confirmations: number;
  pollIntervalMs: number;
  timeoutMs: number;
  explorerUrl: string | null;
}

export function toMoneroNetworkConfig(input: z.infer<typeof moneroNetworkSchema>): MoneroNetworkConfig {
  return { network: 'xmr', ...input, explorerUrl: input.explorerUrl ?? null };
}

/** The `xmr` entry of CHAINS_CONFIG's `networks`, or null when the file has none. */
export function readMoneroNetwork(entries: Readonly<Record<string, unknown>>): MoneroNetworkConfig | null {
  let monero: MoneroNetworkConfig | null = null;
  for (const [key, entry] of Object.entries(entries)) {
    if (key !== 'xmr') throw new ChainsConfigError(`networks.${key}: not a Monero network`);
    const parsed = moneroNetworkSchema.safeParse(entry);
    if (!parsed.success) throw entryError(key, parsed.error);
    monero = toMoneroNetworkConfig(parsed.data);
  }
  return monero;
}
