import { base64, hex } from '@scure/base';
import type { HDKey } from '@scure/bip32';
import type { Kysely } from 'kysely';
import { getXpub } from '../../addresses/xpubs.js';
import { AppError, err, invalid, ok, type Result } from '../../errors.js';
import { depositsOf, minedDepositsOfMerchant } from '../../payments/deposits.js';
import { findPayment } from '../../payments/store.js';
import { findMerchantRefund } from '../../refunds/store.js';
import type { Database } from '../../store/schema.js';
import type { RefundNodes, RefundPsbtRequest, RefundPsbtView } from '../family.js';
import type { ChainRegistry } from '../registry.js';
import { BitcoinChain } from './bitcoin-chain.js';
import type { BitcoinNetworkConfig } from './config.js';
import { amountUnits } from './exact-json.js';
import { buildRefundPsbt, FLOOR_UNITS_PER_VBYTE, type KeyOrigin, type SpendableOutput } from './psbt.js';
import { BitcoinRpc, RpcError } from './rpc.js';
import { parseUtxoXpub } from './utxo.js';
import { accountPath, type UtxoChain, type UtxoNet, utxoChains } from './utxo-params.js';
import { keyHashAddress, outputScript } from './utxo-script.js';

/*
 * Gathers what a Bitcoin-family refund's PSBT spends (issue 30): the refunded payment's own deposit outputs, mined
 * and still unspent by the node's word (`gettxout`), at receive child 0/N of the merchant's account key. The PSBT
 * itself is psbt.ts. Nothing is signed here: the server has no key that could.
 */

/** Blocks the fee estimate aims at: about an hour on Bitcoin, a customer waiting for money back can wait that. */
const FEE_TARGET_BLOCKS = 6;
const HARDENED = 0x80000000;

const conflict = (message: string) => err(new AppError('CONFLICT', message));

/** The node of a refund's network (live Bitcoin-family only): its RPC and which network it runs. */
type NodeOf = (r: { mode: 'test' | 'live'; network: string }) => { rpc: BitcoinRpc; net: UtxoNet } | null;

/** The service's watched nodes, as the API finds them: the chain source of the refund's network. */
function nodeOfRegistry(chains: ChainRegistry): NodeOf {
  return (r) => {
    const source = chains.get(`${r.mode === 'test' ? 'sandbox' : 'live'}:${r.network}`);
    return source instanceof BitcoinChain ? { rpc: source.rpc, net: source.config.chain } : null;
  };
}

/** The Bitcoin-family nodes of CHAINS_CONFIG, each asked over its own RPC (the admin CLI, which runs no watcher). */
function nodeOfConfig(networks: readonly BitcoinNetworkConfig[]): NodeOf {
  return (r) => {
    const n = r.mode === 'live' ? networks.find((x) => x.network === r.network) : undefined;
    if (!n) return null;
    return {
      rpc: new BitcoinRpc({ url: n.rpcUrl, auth: n.auth, timeoutMs: n.timeoutMs, label: n.network }),
      net: n.chain,
    };
  };
}

/** Base units per virtual byte: the node's 6-block estimate, never under its relay fee nor the chain's floor. */
async function feeRate(rpc: BitcoinRpc, chain: UtxoChain): Promise<bigint> {
  const [estimate, network] = await rpc.batch<{ feerate?: unknown; relayfee?: unknown }>([
    { method: 'estimatesmartfee', params: [FEE_TARGET_BLOCKS] },
    { method: 'getnetworkinfo' },
  ]);
  // Both answer in coins per 1000 vB; round up so the rate is never below what the node asked for.
  const perVbyte = (v: unknown) => (amountUnits(v) + 999n) / 1000n;
  let rate = FLOOR_UNITS_PER_VBYTE[chain];
  for (const answer of [estimate, network]) {
    const v = answer?.ok ? (answer.value.feerate ?? answer.value.relayfee) : undefined;
    if (v !== undefined && perVbyte(v) > rate) rate = perVbyte(v);
  }
  return rate;
}

/**
 * Where the signer's keys start. BIP174 wants the master key's fingerprint and the full path, but an account key
 * (depth 3) carries only its parent's fingerprint: the master's cannot be known from it. When the merchant gives it
 * (Sparrow, Electrum, Coldcard and Trezor Suite show it), the origin is the full path m/purpose'/coin'/account'/c/N
 * that hardware wallets check. Without it, the origin is the account key itself, with its own fingerprint (HASH160
 * of its public key) and the path c/N below it: true of the key we hold, and what a software signer holding the
 * account key (or a descriptor wallet importing `wpkh([fingerprint]tpub/0/*)`) matches. Never a guessed fingerprint.
 */
function originOf(account: HDKey, masterFingerprint: number | null, chain: UtxoChain, net: UtxoNet) {
  const [purpose = 84, coin = 0] = accountPath(chain, net)
    .split('/')
    .slice(1, 3)
    .map((s) => Number.parseInt(s, 10));
  return (branch: 0 | 1, index: number): KeyOrigin & { keyHash: Uint8Array } => {
    const child = account.deriveChild(branch).deriveChild(index);
    if (!child.publicKey || !child.identifier) throw new Error('derived key has no public key');
    const path =
      masterFingerprint === null
        ? [branch, index]
        : [purpose + HARDENED, coin + HARDENED, account.index, branch, index];
    return {
      pubkey: child.publicKey,
      keyHash: child.identifier,
      fingerprint: masterFingerprint ?? account.fingerprint,
      path,
    };
  };
}

const formatPath = (o: KeyOrigin) => o.path.map((n) => (n >= HARDENED ? `${n - HARDENED}'` : String(n))).join('/');

/** How many of the merchant's other deposits a PSBT may look at to pay a fee its payment's outputs cannot. */
const TOP_UP_CANDIDATES = 200;

interface Outpoint {
  txid: string;
  vout: number;
  blockHash: string | null;
  key: KeyOrigin & { keyHash: Uint8Array };
  address: string;
}

/**
 * The outputs the node still calls unspent (`gettxout`, mempool included: an output a pending transaction spends is
 * spent), with their amounts, scripts and whole previous transactions (legacy inputs are signed over it; the block
 * hash lets a node without -txindex find it).
 */
async function spendable(rpc: BitcoinRpc, outpoints: readonly Outpoint[], opts: { skipUnreadable?: boolean } = {}) {
  if (outpoints.length === 0) return ok([] as (SpendableOutput & { address: string })[]);
  const outs = await rpc.batch<{ value?: unknown; scriptPubKey?: { hex?: unknown } } | null>(
    outpoints.map((o) => ({ method: 'gettxout', params: [o.txid, o.vout, true] })),
  );
  const unspent = outpoints.flatMap((o, i) => {
    const out = outs[i];
    return out?.ok === true && out.value ? [{ o, out: out.value }] : [];
  });
  const raws = await rpc.batch<string>(
    unspent.map(({ o }) => ({ method: 'getrawtransaction', params: [o.txid, false, o.blockHash] })),
  );
  const found: (SpendableOutput & { address: string })[] = [];
  for (const [i, { o, out }] of unspent.entries()) {
    const raw = raws[i];
    if (!raw?.ok) {
      // A top-up candidate the node cannot give (a pruned block) is left out; the payment's own output cannot be.
      if (opts.skipUnreadable) continue;
      return conflict(`The node does not give the transaction ${o.txid}`);
    }
    found.push({
      txid: o.txid,
      vout: o.vout,
      amountUnits: amountUnits(out.value),
      script: hex.decode(String(out.scriptPubKey?.hex ?? '')),
      previousTx: hex.decode(raw.value),
      key: o.key,
      address: o.address,
    });
  }
  return ok(found);
}

/**
 * The unsigned PSBT of a ready Bitcoin-family refund, spending the payment's unspent deposit outputs back to the
 * confirmed refund address (and, when they cannot also pay the fee, another unspent deposit of the merchant's key),
 * with change to the payment's change child 1/N (see below). Refused with a 409 naming why when the refund is not
 * ready, the outputs are spent or do not cover amount + fee, or the merchant's key changed since.
 *
 * @example
 * await refundPsbt(db, { chains }, { merchantId, refundId }) // ok({ psbt: 'cHNidP8B...', fee_units: '1410', ... })
 */
export async function refundPsbt(
  db: Kysely<Database>,
  nodes: RefundNodes,
  q: RefundPsbtRequest,
): Promise<Result<RefundPsbtView>> {
  const nodeOf = 'chains' in nodes ? nodeOfRegistry(nodes.chains) : nodeOfConfig(nodes.networks.utxo);
  try {
    return await gather(db, nodeOf, q);
  } catch (e) {
    // The node down or refusing: a 503 naming the node (the RPC client's messages, all "RPC of <node>: ...", never
    // carry its URL or password). Anything else is our own failure and stays a 500.
    const fromNode = e instanceof RpcError || (e instanceof Error && e.message.startsWith('RPC of '));
    if (!fromNode) throw e;
    throw new AppError('UNAVAILABLE', `The node did not answer: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function gather(db: Kysely<Database>, nodeOf: NodeOf, q: RefundPsbtRequest): Promise<Result<RefundPsbtView>> {
  const r = await findMerchantRefund(db, q.merchantId, q.refundId);
  if (!r) return err(new AppError('NOT_FOUND', 'Refund not found'));
  const chain = utxoChains.find((c) => c === r.network);
  if (!chain) return err(invalid('refund_id', 'Only a Bitcoin-family refund (BTC, LTC, DOGE) has a PSBT'));
  let masterFingerprint: number | null = null;
  if (q.masterFingerprint !== undefined) {
    if (!/^[0-9a-fA-F]{8}$/.test(q.masterFingerprint))
      return err(invalid('master_fingerprint', 'The master fingerprint is 8 hex digits, as the wallet shows it'));
    masterFingerprint = Number.parseInt(q.masterFingerprint, 16);
  }
  if (r.status !== 'ready' || r.address === null || r.address_confirmed_at === null)
    return conflict(
      `The refund is ${r.status}${r.address_confirmed_at === null ? ' without a confirmed address' : ''}: only a ready refund is sent`,
    );
  const node = nodeOf(r);
  if (!node)
    return conflict('No node of this network is configured: a test-mode refund has no outputs on a real chain');
  const { rpc, net } = node;
  const p = await findPayment(db, r.payment_id);
  const stored = await getXpub(db, r.merchant_id, chain);
  const parsed = stored ? parseUtxoXpub(stored.xpub, chain, net) : null;
  if (!p || p.address_index === null || !parsed?.ok)
    return conflict("The payment's address was not derived from a key the service holds");
  const origin = originOf(parsed.value.key, masterFingerprint, chain, net);
  const receive = origin(0, p.address_index);
  // Change goes to the change child 1/N, not back to the payment's address: the watcher would take an output there
  // for a late deposit of the payment (counted as received again), while 1/N is watched by nothing here and is the
  // merchant wallet's own change branch, which it scans (the derivation on the output lets a signer show it as its
  // own). A wallet with a change gap limit far below N may need a rescan to show it; the coins are the merchant's.
  const changeKey = origin(1, p.address_index);
  const changeAddress = keyHashAddress(changeKey.keyHash, chain, net);
  const changeScript = outputScript(changeAddress, chain, net);
  if (!changeScript) throw new Error('change address has no script');
  // The merchant replaced the key since this payment: its outputs are at a key the service can no longer describe.
  if (keyHashAddress(receive.keyHash, chain, net) !== p.pay_address)
    return conflict("The merchant's key changed since this payment: its outputs belong to the previous key");
  const deposits = (await depositsOf(db, p.id)).filter(
    (d) => d.removed === 0 && d.block_height !== null && d.block_hash !== null && d.asset === r.asset,
  );
  if (deposits.length === 0) return conflict('The payment has no mined deposit outputs to spend');
  const own = await spendable(
    rpc,
    deposits.map((d) => ({
      txid: d.txid,
      vout: d.log_index,
      blockHash: d.block_hash,
      key: receive,
      address: p.pay_address,
    })),
  );
  if (!own.ok) return own;
  if (own.value.length === 0)
    return conflict(
      `The payment's outputs are already spent (${deposits.map((d) => `${d.txid}:${d.log_index}`).join(', ')}): send the refund from the wallet with its payment URI`,
    );
  const plan = {
    chain,
    net,
    to: r.address,
    amountUnits: BigInt(r.amount_units),
    feeUnitsPerVbyte: await feeRate(rpc, chain),
    change: { script: changeScript, key: changeKey },
  };
  let inputs = own.value;
  let built = buildRefundPsbt({ ...plan, inputs });
  if (!built.ok) {
    // A refund of all the payment received leaves its own outputs short of the fee: the merchant's other unspent
    // deposits at the same key make it up, largest first, as a wallet's coin selection would.
    const others = (
      await minedDepositsOfMerchant(
        db,
        { merchantId: r.merchant_id, mode: r.mode, network: r.network, asset: r.asset, exceptPaymentId: p.id },
        TOP_UP_CANDIDATES,
      )
    ).flatMap((d) => {
      const key = origin(0, d.address_index as number);
      // Only outputs of the key the service holds now: an older key's are not for this PSBT to describe.
      if (keyHashAddress(key.keyHash, chain, net) !== d.pay_address) return [];
      return [{ txid: d.txid, vout: d.log_index, blockHash: d.block_hash, key, address: d.pay_address }];
    });
    const extra = await spendable(rpc, others, { skipUnreadable: true });
    if (!extra.ok) return extra;
    const bySize = [...extra.value].sort((x, y) => (x.amountUnits > y.amountUnits ? 1 : -1));
    // The smallest one deposit that pays the fee, so little change lands on a branch the wallet may not scan far;
    // else the largest first until they do.
    for (const one of bySize) {
      const tried = buildRefundPsbt({ ...plan, inputs: [...inputs, one] });
      if (tried.ok) {
        inputs = [...inputs, one];
        built = tried;
        break;
      }
    }
    for (const more of built.ok ? [] : bySize.reverse()) {
      inputs = [...inputs, more];
      built = buildRefundPsbt({ ...plan, inputs });
      if (built.ok) break;
    }
  }
  if (!built.ok) return built;
  const b = built.value;
  return ok({
    refund_id: r.id,
    psbt: base64.encode(b.psbt),
    fee_units: b.feeUnits.toString(),
    fee_rate_units_per_vbyte: b.feeUnitsPerVbyte.toString(),
    vsize: b.vsize,
    amount_units: r.amount_units,
    address: r.address,
    change_units: b.changeUnits.toString(),
    change_address: b.changeUnits > 0n ? changeAddress : null,
    inputs: inputs.map((i) => ({
      txid: i.txid,
      vout: i.vout,
      amount_units: i.amountUnits.toString(),
      address: i.address,
      path: formatPath(i.key),
    })),
    key_origin: masterFingerprint === null ? ('account' as const) : ('master' as const),
  });
}
