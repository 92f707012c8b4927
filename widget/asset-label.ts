/*
 * The one rule for naming an asset to people (issue 23): the catalog's codes (`USDTERC20`, `ETHBASE`) are the API's
 * identifiers, but a customer or a merchant reads "USDT" on "Ethereum". Pure and tiny so that both apps can bundle
 * it: the dashboard uses it for every amount and asset it shows; the drop-in keeps showing the codes for now (its
 * bytes before the QR are at their floor, and its asset buttons' accessible names carry the code by contract).
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
 * An asset code as people read it: the ticker a wallet shows, and the network when the code names one (the same
 * ticker lives on several networks, and sending on the wrong one loses the money).
 * @example assetLabel('USDTERC20') // "USDT (Ethereum)"
 * @example assetLabel('ETHBASE') // "ETH (Base)"
 * @example assetLabel('BTC') // "BTC"
 */
export function assetLabel(code: string): string {
  const upper = code.toUpperCase();
  for (const [suffix, network] of SUFFIXES) {
    if (upper.length > suffix.length && upper.endsWith(suffix)) {
      return `${upper.slice(0, -suffix.length)} (${networkName(network)})`;
    }
  }
  return upper;
}
