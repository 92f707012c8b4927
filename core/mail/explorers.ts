import type { Kysely } from 'kysely';
import { chainKey } from '../chains/types.js';
import type { Database } from '../store/schema.js';
import { getSetting, putSetting } from '../store/settings.js';

/**
 * Explorer bases of the configured chains, kept in the store for receipts: they are written inside a payment's
 * change, where only the store is at hand (like PUBLIC_URL). Written at every start from the chains' configuration.
 */
const EXPLORERS_SETTING = 'mail_explorer_urls';

export async function rememberExplorerUrls(
  db: Kysely<Database>,
  chains: readonly { key: string; explorerUrl?: string | null }[],
): Promise<void> {
  const map = Object.fromEntries(chains.flatMap((c) => (c.explorerUrl ? [[c.key, c.explorerUrl]] : [])));
  await putSetting(db, EXPLORERS_SETTING, JSON.stringify(map));
}

/** `${explorer}/tx/${txid}` for a payment's transaction, or a function giving null when its chain has none. */
export async function explorerLinks(
  db: Kysely<Database>,
  p: { mode: 'test' | 'live'; network: string },
): Promise<(txid: string) => string | null> {
  const raw = await getSetting(db, EXPLORERS_SETTING);
  let base: unknown = null;
  try {
    base = raw ? (JSON.parse(raw) as Record<string, unknown>)[chainKey(p.mode, p.network)] : null;
  } catch {
    base = null;
  }
  return (txid) => (typeof base === 'string' ? `${base}/tx/${encodeURIComponent(txid)}` : null);
}
