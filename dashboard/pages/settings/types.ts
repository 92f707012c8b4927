/** The settings page's data as the dashboard API builds it (dashboard-api/view-types.ts), imported type-only. */
export type { Derived, Network, Settings, UtxoKey } from '../../../dashboard-api/view-types.js';

/** What each key is called on the page, and what wallets export it as (the admin CLI's `xpub set` help). */
const CHAIN_WORDS: Record<string, { name: string; forms: string } | undefined> = {
  btc: { name: 'Bitcoin', forms: 'zpub or xpub' },
  ltc: { name: 'Litecoin', forms: 'zpub, Ltub or xpub' },
  doge: { name: 'Dogecoin', forms: 'dgub or xpub' },
};

/** A Bitcoin-family chain's words; a chain the page has none for (a family added later) by its code. */
export function chainWords(chain: string): { name: string; forms: string } {
  return CHAIN_WORDS[chain] ?? { name: chain.toUpperCase(), forms: 'xpub' };
}
