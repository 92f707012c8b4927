import type { z } from 'zod';

/** What a mistake in CHAINS_CONFIG throws: one line naming its place, so start-up stops clearly. */
export class ChainsConfigError extends Error {
  override name = 'ChainsConfigError';
}

/**
 * The first issue of a failed parse of one `networks` entry, as one line naming its place.
 *
 * @example
 * entryError('xmr', moneroNetworkSchema.safeParse({}).error) // ChainsConfigError('networks.xmr.rpcUrl: ...')
 */
export function entryError(network: string, error: z.ZodError): ChainsConfigError {
  const issue = error.issues[0];
  const where = ['networks', network, ...(issue?.path ?? [])].map(String).join('.');
  return new ChainsConfigError(`${where}: ${issue?.message ?? 'invalid'}`);
}
