/*
 * What tells the Bitcoin-family chains apart, for addresses: the receive address kind per chain and network, the
 * account path wallets use, and the version bytes of the extended keys they export. Nothing here touches a key.
 */

/** Catalog network codes of the Bitcoin family (core/catalog/assets.ts). */
export const utxoChains = ['btc', 'ltc', 'doge'] as const;
export type UtxoChain = (typeof utxoChains)[number];

/** The node's network, as Bitcoin Core's `getblockchaininfo.chain` names it. */
export const utxoNets = ['main', 'test', 'regtest'] as const;
export type UtxoNet = (typeof utxoNets)[number];

/**
 * How a payment address of a chain is encoded. BTC and LTC pay to native SegWit v0 key hashes (BIP84, bech32 per
 * BIP173); Dogecoin has no SegWit, so its addresses are base58check P2PKH.
 */
export type UtxoAddressKind = { type: 'p2wpkh'; hrp: string } | { type: 'p2pkh'; version: number };

const KINDS: Record<UtxoChain, Record<UtxoNet, UtxoAddressKind>> = {
  btc: {
    main: { type: 'p2wpkh', hrp: 'bc' },
    test: { type: 'p2wpkh', hrp: 'tb' },
    regtest: { type: 'p2wpkh', hrp: 'bcrt' },
  },
  // SLIP-0173: ltc / tltc / rltc.
  ltc: {
    main: { type: 'p2wpkh', hrp: 'ltc' },
    test: { type: 'p2wpkh', hrp: 'tltc' },
    regtest: { type: 'p2wpkh', hrp: 'rltc' },
  },
  // Dogecoin Core chainparams: PUBKEY_ADDRESS 30 (D...), testnet 113 (n...), regtest 111 (m/n..., as Bitcoin's testnet).
  doge: {
    main: { type: 'p2pkh', version: 0x1e },
    test: { type: 'p2pkh', version: 0x71 },
    regtest: { type: 'p2pkh', version: 0x6f },
  },
};

/** @example receiveAddressKind('ltc', 'regtest') // { type: 'p2wpkh', hrp: 'rltc' } */
export function receiveAddressKind(chain: UtxoChain, net: UtxoNet): UtxoAddressKind {
  return KINDS[chain][net];
}

/**
 * The account path a wallet exports its key from: BIP84 for BTC and LTC, BIP44 for Dogecoin; coin type 1 on every
 * test network (SLIP-0044). Shown to merchants, never used to derive: the server only ever sees the account key.
 *
 * @example accountPath('btc', 'main') // "m/84'/0'/0'"
 */
export function accountPath(chain: UtxoChain, net: UtxoNet): string {
  const purpose = chain === 'doge' ? 44 : 84;
  const coin = net !== 'main' ? 1 : chain === 'btc' ? 0 : chain === 'ltc' ? 2 : 3;
  return `m/${purpose}'/${coin}'/0'`;
}

/** Version bytes of BIP32 serialisations (BIP32, SLIP-0132, Dogecoin Core chainparams). */
export const extendedKeyVersions = {
  xpub: 0x0488b21e,
  xprv: 0x0488ade4,
  ypub: 0x049d7cb2,
  yprv: 0x049d7878,
  zpub: 0x04b24746,
  zprv: 0x04b2430c,
  Ypub: 0x0295b43f,
  Yprv: 0x0295b005,
  Zpub: 0x02aa7ed3,
  Zprv: 0x02aa7a99,
  tpub: 0x043587cf,
  tprv: 0x04358394,
  upub: 0x044a5262,
  uprv: 0x044a4e28,
  Upub: 0x024289ef,
  Uprv: 0x024285b5,
  vpub: 0x045f1cf6,
  vprv: 0x045f18bc,
  Vpub: 0x02575483,
  Vprv: 0x02575048,
  Ltub: 0x019da462,
  Ltpv: 0x019d9cfe,
  Mtub: 0x01b26ef6,
  Mtpv: 0x01b26792,
  ttub: 0x0436f6e1,
  ttpv: 0x0436ef7d,
  dgub: 0x02facafd,
  dgpv: 0x02fac398,
} as const;
export type ExtendedKeyPrefix = keyof typeof extendedKeyVersions;

/**
 * Public forms accepted per chain and network. `xpub`/`tpub` are what Bitcoin Core, Litecoin Core and most descriptor
 * wallets export whatever the script type; `zpub`/`vpub` name BIP84 explicitly; `Ltub`/`ttub` are Litecoin's and
 * `dgub` Dogecoin's own serialisations of the same key. The P2SH-wrapped forms (ypub, upub, Mtub) and the multisig
 * ones are refused: their wallets watch other scripts, so payments to our addresses would not show there.
 */
const ACCEPTED: Record<UtxoChain, Record<UtxoNet, readonly ExtendedKeyPrefix[]>> = {
  btc: { main: ['xpub', 'zpub'], test: ['tpub', 'vpub'], regtest: ['tpub', 'vpub'] },
  ltc: { main: ['xpub', 'zpub', 'Ltub'], test: ['tpub', 'vpub', 'ttub'], regtest: ['tpub', 'vpub', 'ttub'] },
  doge: { main: ['xpub', 'dgub'], test: ['tpub'], regtest: ['tpub'] },
};

/** @example acceptedPrefixes('ltc', 'main') // ['xpub', 'zpub', 'Ltub'] */
export function acceptedPrefixes(chain: UtxoChain, net: UtxoNet): readonly ExtendedKeyPrefix[] {
  return ACCEPTED[chain][net];
}

/**
 * The one form a key is stored in, so a key pasted as zpub and as xpub is recognised as the same key.
 *
 * @example canonicalPrefix('regtest') // 'tpub'
 */
export function canonicalPrefix(net: UtxoNet): 'xpub' | 'tpub' {
  return net === 'main' ? 'xpub' : 'tpub';
}

/**
 * Prefix of a version number, if it is a registered one.
 *
 * @example prefixOfVersion(0x04b24746) // 'zpub'
 */
export function prefixOfVersion(version: number): ExtendedKeyPrefix | null {
  for (const [prefix, v] of Object.entries(extendedKeyVersions)) if (v === version) return prefix as ExtendedKeyPrefix;
  return null;
}
