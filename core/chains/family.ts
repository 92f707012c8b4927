import type { Kysely } from 'kysely';
import type { Address, Hex } from 'viem';
import type { AddressAllocator } from '../addresses/types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { Asset, ChainFamily } from '../catalog/types.js';
import type { Clock } from '../clock.js';
import type { Result } from '../errors.js';
import type { Unswept } from '../forwarders/store.js';
import type { Logger } from '../log.js';
import type { Payment } from '../payments/payment.js';
import type { PaymentUriInput } from '../qr/payment-uri.js';
import type { Refund } from '../refunds/refund.js';
import type { Database } from '../store/schema.js';
import type { ChainsConfig } from './chains-config.js';
import type { ChainsConfig as AllNetworks, KeyNet } from './families.js';
import type { ChainRegistry } from './registry.js';
import type { ChainSource } from './types.js';
import type { ChainWatchers } from './watchers.js';

/** What a family is built from: the store, the clock, and the live networks CHAINS_CONFIG configures. */
export interface FamilyContext {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  chains: ChainRegistry;
  networks: ChainsConfig;
  /** Every network of the catalog: the sandbox chain watches each one in test mode. */
  catalogNetworks: readonly string[];
  /** The service's watchers (the sandbox's block timer syncs them). */
  watchers: ChainWatchers;
  /** SANDBOX_BLOCK_INTERVAL_MS: the simulated chains' block timer; 0: blocks only on request. */
  blockIntervalMs: number;
  /** UTXO_GAP_LIMIT and UTXO_PAST_GAP_PER_MINUTE: how far a run of unpaid addresses may go (core/addresses/gap.ts). */
  gap: { limit: number; pastLimitPerMinute: number };
}

/** What a family brings to a running service. */
export interface FamilyParts {
  /** Chain sources to watch (the sandbox's in test mode, configured nodes' in live mode). */
  sources: ChainSource[];
  /** Live address allocation for the family's assets (`assetFamilies`); none: the family has no live payments. */
  liveAllocator?: AddressAllocator;
  /** Test mode's allocator (the sandbox's); one family provides it. */
  testAllocator?: AddressAllocator;
  /** Background workers moving merchants' funds (EVM forwarder sweepers). */
  sweepers?: Sweeper[];
  /** Work started with the service (the sandbox's block timer); returns its stop. */
  start?(): (() => void | Promise<void>) | undefined;
}

/** What the sweeper of one network knows now: the dashboard, /metrics and the logs read it. */
export interface SweeperStatus {
  network: string;
  factory: Address;
  /** Why forwarder payments are refused on this network, or null once the factory was checked on chain. */
  factoryProblem: string | null;
  relayer: Address | null;
  relayerBalanceWei: bigint | null;
  /** Why the relayer is not sweeping now (batching, gas price, no gas), or null. */
  waiting: string | null;
  unswept: { forwarders: number; units: Map<string, bigint> };
}

/**
 * One EVM network's forwarder sweeper (core/chains/evm/forwarders/sweeper.ts) as the rest of the service sees it:
 * the service starts and stops it, the dashboard's Sweeps page and /metrics read its status.
 */
export interface Sweeper {
  readonly network: string;
  /** Its network's configuration (the dashboard shows its chain id and explorer; rpcUrl stays on the server). */
  readonly config: EvmNetwork;
  status(): SweeperStatus;
  start(): void;
  stop(): Promise<void>;
}

/** An EVM network of CHAINS_CONFIG, as the forwarder readers outside the family take it. */
type EvmNetwork = AllNetworks['evm'][number];

/** A transaction any wallet can send: it flushes every unswept forwarder of a merchant on one network. */
export interface WalletSweep {
  chainId: number;
  to: Address;
  data: Hex;
  forwarders: Unswept[];
}

/**
 * A family's forwarders (EVM's, core/chains/evm/forwarders/) as the dashboard's Sweeps page and payout setting and
 * the admin CLI's `evm sweep` and `payout set` use them. Their rows (core/forwarders/store.ts) and payouts
 * (core/forwarders/payouts.ts) are read without the family.
 */
export interface Forwarders {
  /** At most this many forwarders go into one wallet sweep (one flushMany): a block's gas limit bounds it. */
  walletSweepMax: number;
  /** A merchant's forwarders on a network holding confirmed deposits that no flush covered yet, oldest first. */
  unswept(db: Kysely<Database>, network: EvmNetwork, merchantId: string, now: number): Promise<Unswept[]>;
  /** The one flushMany a wallet sends for the merchant's oldest unswept forwarders; null: nothing to sweep. */
  walletSweep(db: Kysely<Database>, network: EvmNetwork, merchantId: string, now: number): Promise<WalletSweep | null>;
  /** The forwarder networks where `address` holds code (a contract payout), and those whose node did not answer. */
  payoutCodeOn(
    networks: readonly EvmNetwork[],
    address: Address,
  ): Promise<{ contractOn: string[]; uncheckedOn: string[] }>;
}

/** A refund the merchant's wallet sent, as the merchant proves it: the transaction and its secret key (Monero's tx key). */
export interface RefundProof {
  merchantId: string;
  refundId: string;
  txid: string;
  txKey: string;
}

/** Which unsigned PSBT of a refund is asked for. */
export interface RefundPsbtRequest {
  merchantId: string;
  refundId: string;
  /** The master key's fingerprint as the merchant's wallet shows it (8 hex digits), for hardware signers. */
  masterFingerprint?: string | undefined;
}

/**
 * Where a refund's node is asked: the service's watched chains (the APIs), or CHAINS_CONFIG's nodes, each over its own
 * connection (the admin CLI, which runs no watcher).
 */
export type RefundNodes = { chains: ChainRegistry } | { networks: AllNetworks };

/** A refund's unsigned PSBT and what it spends (GET /refunds/{id}/psbt): amounts in base units, decimal strings. */
export interface RefundPsbtView {
  refund_id: string;
  /** Base64, unsigned. */
  psbt: string;
  fee_units: string;
  fee_rate_units_per_vbyte: string;
  vsize: number;
  amount_units: string;
  address: string;
  change_units: string;
  /** Null: no change output (it would have been dust). */
  change_address: string | null;
  inputs: { txid: string; vout: number; amount_units: string; address: string; path: string }[];
  /** Whether the inputs' paths start at the account key or, given its fingerprint, at the master key. */
  key_origin: 'account' | 'master';
}

/**
 * What a browser wallet sends to pay a payment (the drop-in's `wallet`): an EIP-1193 transaction, quantities in hex,
 * and EIP-3085's `wallet_addEthereumChain` parameter for a wallet lacking the chain (null: no public RPC to name).
 */
export interface WalletPayRequest {
  chain_id: string;
  to: string;
  value: string;
  data: string | null;
  explorer_url: string | null;
  add_chain: {
    chainId: string;
    chainName: string;
    nativeCurrency: { name: string; symbol: string; decimals: number };
    rpcUrls: string[];
    blockExplorerUrls?: string[];
  } | null;
}

/** A pasted account key, parsed for its chain and network, ready to store. */
export interface ParsedKey {
  /** The form stored: xpub (EVM, Bitcoin-family mainnet) or tpub (test networks), whatever form was pasted. */
  xpub: string;
  depth: number;
  /** The form the merchant pasted (zpub, Ltub, dgub...) where the chain has several; null: one form only. */
  pastedAs: string | null;
}

/**
 * One kind of merchant account key (an extended public key) a family's live addresses derive from: payment N pays
 * to child 0/N. core/addresses/xpubs.ts stores every kind in one table; the admin CLI's `xpub` commands, Settings and
 * the HD allocator (core/addresses/hd-allocator.ts) reach a kind through its `chain`.
 */
export interface AccountKeyScheme {
  /** `merchant_xpubs.chain`: `evm` (one key for every EVM network) or a Bitcoin-family chain (`btc`, `ltc`, `doge`). */
  chain: string;
  /** Whether keys are read for the chain's node network (main, test, regtest) and unpaid runs are gap-limited. */
  perNetwork: boolean;
  /** Whether it pays a live asset's addresses. */
  serves(asset: Pick<Asset, 'family' | 'network'>): boolean;
  /** The account path a wallet exports the key from (shown to merchants; the server derives only 0/N below it). */
  path(net: KeyNet): string;
  /** A pasted key checked for the chain and network: private keys refused, never echoed. */
  parse(text: string, net: KeyNet): Result<ParsedKey>;
  /** Address of receive child 0/`index`. */
  addressAt(xpub: string, net: KeyNet, index: number): string;
}

/**
 * Test mode's simulated chain as the sandbox routes drive it (POST /sandbox/transfers and /sandbox/blocks, the
 * drop-in's simulate).
 */
export interface SimulatedChain {
  /** Broadcasts a transfer: it waits in the mempool (0 confirmations) until a block is mined. Returns its txid. */
  send(
    db: Kysely<Database>,
    clock: Clock,
    t: { asset: Asset; address: string; extraId: string | null; units: bigint },
  ): Promise<string>;
  /** Mines `count` blocks on one network, the first taking every waiting transfer; returns the new height. */
  mine(db: Kysely<Database>, clock: Clock, network: string, count: number): Promise<number>;
}

/** A customer's address checked past its form: the form the watchers match, or why it is refused. */
export type AddressCheck = { ok: true; address: string } | { ok: false; why: string };

/** A merchant's registered view-key wallet as settings show it: its primary address, never the key. */
export interface ViewKeyWallet {
  address: string;
  /** The index of the next payment's address. */
  nextIndex: number;
  updatedAt: number;
  /** The wallet's receive address at an index (Monero: subaddress `index` of account 0; 1 is a payment's first). */
  addressAt(index: number): string;
}

/**
 * Key settings of a family whose merchants register a wallet address and its private view key (Monero), as the
 * dashboard's Settings and the admin CLI's `viewkey` commands read and set them.
 */
export interface ViewKeySettings {
  /** `merchant_xpubs.chain` of the keys, which the wallet's addresses are counted under (core/addresses/gap.ts). */
  chain: string;
  /** Unpaid addresses a wallet restored from keys looks ahead: past a run this long it stops seeing payments. */
  lookahead: number;
  read(db: Kysely<Database>, merchantId: string): Promise<ViewKeyWallet | null>;
  /** Checks the view key against the address (a spend key or a seed is refused, never echoed), then stores both. */
  set(
    db: Kysely<Database>,
    clock: Clock,
    merchantId: string,
    address: string,
    viewKey: string,
  ): Promise<Result<{ address: string; firstSubaddress: string; nextIndex: number }>>;
}

/**
 * One chain family (EVM, Bitcoin-family, Monero, the sandbox) as the rest of the service sees it. Everything else
 * of a family stays in its folder, core/chains/<family>/; core/chains/families.ts lists the descriptors, and the
 * service (server/service.ts) builds each one the same way.
 */
export interface ChainFamilyDescriptor {
  name: string;
  /** The catalog's families (`Asset.family`) whose live payments this one serves. */
  assetFamilies: readonly ChainFamily[];
  /**
   * Reads the family's entries of CHAINS_CONFIG's `networks` (those whose catalog network is of `assetFamilies`, in
   * the file's order) into its part of the configuration; given none, its empty part. A mistake throws
   * ChainsConfigError (core/chains/config-error.ts) naming its place. None: the family has no configured networks.
   */
  readConfig?(entries: Readonly<Record<string, unknown>>, assets: readonly Asset[]): Partial<ChainsConfig>;
  /** The catalog as the family's configured nodes see it (chain ids, token contracts, test-network address forms). */
  configure?(assets: readonly Asset[], networks: ChainsConfig): Asset[];
  /** Whether CHAINS_CONFIG configures a live network of this family (live prices are fetched only then). */
  isLive(networks: ChainsConfig): boolean;
  build(ctx: FamilyContext): FamilyParts;
  /**
   * A customer's address for one of its assets (a refund's destination), already of the asset's form (`walletRegex`):
   * its checksum checked and put in the form the watchers match. None: the form is all there is to check.
   */
  checkAddress?(address: string): AddressCheck;
  /**
   * Test mode's address for one of its assets from 32 random bytes (the same seed, the same address): real encoding
   * and checksum, of the asset's `walletRegex`, with no key anyone holds. The sandbox chain asks each family.
   */
  sandboxAddress?(asset: Asset, seed: Uint8Array): string;
  /** The account keys its live addresses derive from (EVM's one, each Bitcoin-family chain's). */
  accountKeys?: readonly AccountKeyScheme[];
  /** Test mode's simulated chain (the sandbox's). */
  simulated?: SimulatedChain;
  /** Its merchants' view-key wallets (Monero); none: its keys are not of this kind. */
  viewKeys?: ViewKeySettings;
  /**
   * What a browser wallet sends to pay one of its live payments, built from `asked` (the input of the payment's
   * `payment_uri`, so both ask for the same transfer); null when the payment's network is not configured live. None:
   * its payments have no browser wallet pay (only EVM's do).
   */
  walletPay?(chains: ChainRegistry, catalog: Catalog, p: Payment, asked: PaymentUriInput): WalletPayRequest | null;
  /** Its payments' forwarders to a merchant's payout address (EVM); none: it pays merchants' keys directly. */
  forwarders?: Forwarders;
  /**
   * Marks a ready refund sent on the merchant's proof of the transaction their wallet made (Monero: its tx key, as a
   * view key cannot see money leave). A refund of another family, or a proof that does not hold, is a 422 naming the
   * field. None: the family's watcher sees its refunds sent.
   */
  proveRefund?(db: Kysely<Database>, clock: Clock, chains: ChainRegistry, proof: RefundProof): Promise<Result<Refund>>;
  /**
   * The unsigned PSBT of a ready refund, spending the payment's own outputs (Bitcoin-family), for the merchant's
   * wallet to sign. A refund of another family is a 422; none to build is a 409 saying why; a node down is a 503.
   */
  refundPsbt?(db: Kysely<Database>, nodes: RefundNodes, q: RefundPsbtRequest): Promise<Result<RefundPsbtView>>;
}
