/*
 * The pieces every family's address shapes are built from. Shapes are deliberately tight on the prefix so an address
 * of a sibling network (LTC on BTC, TRX on ETH, ...) is refused before any money moves. They check the shape only,
 * not the checksum. Each family keeps its own shapes (core/chains/<family>/address-shapes.ts); the catalog gathers
 * them (core/catalog/assets.ts).
 */

/** Bitcoin's base58 alphabet (no 0, O, I, l), shared by every base58 family. */
export const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
