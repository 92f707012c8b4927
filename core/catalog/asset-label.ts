/*
 * The one rule for naming an asset to people (issue 23): the catalog's codes (`USDTERC20`, `ETHBASE`) are the API's
 * identifiers, but a customer or a merchant reads "USDT" on "Ethereum". Pure and tiny, with no imports, so the
 * dashboard bundles it (every amount and asset it shows) and the drop-in API applies it on the server: the popup
 * and the hosted page print the `ticker` and `network_name` of its answers (dropin-api/views.ts, routes/currencies.ts)
 * rather than carry this table in the drop-in's bytes before the QR, which are at their floor.
 */

/** Network ids as people know them; a Map, since the id comes from input. */
const NETWORKS = new Map([
  ['btc', 'Bitcoin'],
  ['eth', 'Ethereum'],
  ['trx', 'Tron'],
  ['ltc', 'Litecoin'],
  ['doge', 'Dogecoin'],
  ['bsc', 'BNB Smart Chain'],
  ['matic', 'Polygon'],
  ['sol', 'Solana'],
  ['xrp', 'XRP Ledger'],
  ['base', 'Base'],
  ['xmr', 'Monero'],
]);

/**
 * The network's name, or its id when it has none here.
 * @example networkName('eth') // "Ethereum"
 */
export function networkName(network: string): string {
  return NETWORKS.get(network.toLowerCase()) ?? network;
}

/** The suffixes by which a code names the network of a ticker that lives on several, and that network's id. */
const SUFFIXES = [
  ['ERC20', 'eth'],
  ['TRC20', 'trx'],
  ['BSC', 'bsc'],
  ['MATIC', 'matic'],
  ['BASE', 'base'],
] as const;

/**
 * The ticker a wallet shows for an asset code: the code without the suffix that names its network.
 * @example assetTicker('USDTERC20') // "USDT"
 * @example assetTicker('ETHBASE') // "ETH"
 * @example assetTicker('btc') // "BTC"
 */
export function assetTicker(code: string): string {
  return splitCode(code)[0];
}

/** A code's ticker and the id of the network its suffix names (null when it names none). */
function splitCode(code: string): [ticker: string, network: string | null] {
  const upper = code.toUpperCase();
  for (const [suffix, network] of SUFFIXES) {
    if (upper.length > suffix.length && upper.endsWith(suffix)) return [upper.slice(0, -suffix.length), network];
  }
  return [upper, null];
}

/**
 * An asset code as people read it: the ticker a wallet shows, and the network when the code names one (the same
 * ticker lives on several networks, and sending on the wrong one loses the money).
 * @example assetLabel('USDTERC20') // "USDT (Ethereum)"
 * @example assetLabel('ETHBASE') // "ETH (Base)"
 * @example assetLabel('BTC') // "BTC"
 */
export function assetLabel(code: string): string {
  const [ticker, network] = splitCode(code);
  return network === null ? ticker : `${ticker} (${networkName(network)})`;
}
