/** The settings page's data as the dashboard API sends it. */
export interface Settings {
  name: string;
  mode: 'test' | 'live';
  allowed_origins: string[];
  /** The price currency of requests that name none, and the codes it may be. */
  default_currency: string;
  price_currencies: string[];
  xpub: { xpub: string; addresses: Derived[]; next_index: number } | null;
  /** Bitcoin, Litecoin and Dogecoin: one account key each, read for the chain's node network. */
  utxo_keys: UtxoKey[];
  payout: { chain: 'evm'; address: string } | null;
  /** EVM networks with a forwarder factory: there the payout wins over the xpub. */
  forwarder_networks: string[];
  /** Monero: the primary address and subaddress 1 (the view key is never sent back). */
  monero: { address: string; first_subaddress: string; next_index: number } | null;
}
export interface UtxoKey {
  chain: 'btc' | 'ltc' | 'doge';
  network: string;
  path: string;
  xpub: string | null;
  addresses: Derived[];
  next_index: number;
}
/** What each key is called on the page, and what wallets export it as (the admin CLI's `xpub set` help). */
export const CHAIN_WORDS = {
  btc: { name: 'Bitcoin', forms: 'zpub or xpub' },
  ltc: { name: 'Litecoin', forms: 'zpub, Ltub or xpub' },
  doge: { name: 'Dogecoin', forms: 'dgub or xpub' },
} as const;
export interface Derived {
  index: number;
  path: string;
  address: string;
}
export interface Network {
  network: string;
  healthy: boolean;
  height: number | null;
  confirmations: number;
}
