import { Address, OutScript, Transaction } from '@scure/btc-signer';
import type { BTC_NETWORK } from '@scure/btc-signer/utils.js';
import { AppError, err, ok, type Result } from '../../errors.js';
import { receiveAddressKind, type UtxoChain, type UtxoNet } from './utxo-params.js';

/*
 * An unsigned PSBT (BIP174, version 0) returning a refund from the payment's own deposit outputs. The encoding is
 * @scure/btc-signer's (the author of our @scure/bip32 and noble dependencies): a PSBT is a format where one wrong
 * length prefix makes a hardware wallet refuse the file, not something to write twice. This module only arranges
 * inputs and outputs and prices the fee; what is unspent and at which key is refund-psbt.ts's work.
 */

/** Address versions of every network we serve (the customer's address may be any kind: P2SH, P2TR, P2WSH...). */
const NETWORKS: Record<UtxoChain, Record<UtxoNet, BTC_NETWORK>> = {
  btc: {
    main: { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
    test: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
    regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  },
  ltc: {
    main: { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32, wif: 0xb0 },
    test: { bech32: 'tltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef },
    regtest: { bech32: 'rltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef },
  },
  // Dogecoin has no SegWit: no address decodes under this placeholder prefix.
  doge: {
    main: { bech32: 'nosegwit', pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e },
    test: { bech32: 'nosegwit', pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 },
    regtest: { bech32: 'nosegwit', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  },
};

/**
 * Fee-rate floors in base units per virtual byte, used when the node cannot estimate (`estimatesmartfee` needs
 * recent blocks with fee-paying transactions: a regtest node, or a freshly synced one, answers "Insufficient data")
 * and as a lower bound of any estimate. They are the rates the reference wallets still relay and mine by default:
 * Bitcoin Core's minimum relay fee (1 sat/vB), Litecoin Core's default minimum transaction fee (0.0001 LTC/kvB, 10
 * litoshi/vB, which its wallets refuse to go under), and Dogecoin Core's recommended fee (0.01 DOGE/kB). The node's
 * own `relayfee` is applied on top, so a node configured stricter is still obeyed.
 */
export const FLOOR_UNITS_PER_VBYTE: Record<UtxoChain, bigint> = { btc: 1n, ltc: 10n, doge: 1000n };

/**
 * Below these, change is not worth an output and goes to the fee: Bitcoin Core's dust threshold at its default dust
 * relay fee (3 sat/vB: 294 for a P2WPKH output, 546 for P2PKH), and Dogecoin Core's hard dust limit (0.01 DOGE).
 */
const DUST: Record<UtxoChain, bigint> = { btc: 294n, ltc: 294n, doge: 1_000_000n };

/**
 * Virtual sizes, signatures counted at their longest (72 bytes, DER with a high R): the fee is then never short.
 * P2WPKH input: 41 bytes (outpoint 36, empty scriptSig 1, sequence 4) + witness (count 1, sig 1+72, key 1+33 =
 * 108 weight units) / 4 = 68 vB. P2PKH input: 36 + scriptSig 1+(1+72)+(1+33) + 4 = 148 bytes. Transaction overhead:
 * version 4, locktime 4, two counts 1 each = 10, plus the SegWit marker and flag (2 weight units, 0.5 vB) rounded up.
 */
const INPUT_VBYTES = { p2wpkh: 68, p2pkh: 148 } as const;
const OVERHEAD_VBYTES = { p2wpkh: 11, p2pkh: 10 } as const;

/** An output value, its script length prefix (one byte below 253) and the script. */
const outputVbytes = (script: Uint8Array) => 8 + 1 + script.length;

/** The origin of a key for a signer: the fingerprint of the key the path starts from, and the path. */
export interface KeyOrigin {
  pubkey: Uint8Array;
  fingerprint: number;
  path: number[];
}

/** One of the payment's deposit outputs, still unspent at the merchant's derived address. */
export interface SpendableOutput {
  txid: string;
  vout: number;
  amountUnits: bigint;
  /** The output's script (the payment address's). */
  script: Uint8Array;
  /** The whole previous transaction, serialised: legacy inputs are signed over it, SegWit ones checked against it. */
  previousTx: Uint8Array;
  key: KeyOrigin;
}

export interface RefundPsbtPlan {
  chain: UtxoChain;
  net: UtxoNet;
  inputs: readonly SpendableOutput[];
  /** The customer's address (validated for the network already) and the exact refund amount. */
  to: string;
  amountUnits: bigint;
  feeUnitsPerVbyte: bigint;
  /** Where change goes, with its key origin so a signer knows the output is its own. */
  change: { script: Uint8Array; key: KeyOrigin };
}

export interface RefundPsbt {
  psbt: Uint8Array;
  feeUnits: bigint;
  feeUnitsPerVbyte: bigint;
  vsize: number;
  /** Change returned to the merchant, or 0 when it was dust and went to the fee. */
  changeUnits: bigint;
}

/** The customer's address as an output script, or null when btc-signer cannot read it for this network. */
export function destinationScript(address: string, chain: UtxoChain, net: UtxoNet): Uint8Array | null {
  try {
    return OutScript.encode(Address(NETWORKS[chain][net]).decode(address));
  } catch {
    return null;
  }
}

/**
 * The unsigned PSBT spending every given output: the customer's output is exactly the refund amount, the fee is the
 * rate times the estimated virtual size, and the remainder goes to `change` unless it is dust. Refused with a 409
 * naming the shortfall when the outputs do not cover amount + fee.
 *
 * @example
 * buildRefundPsbt({ chain: 'ltc', net: 'main', inputs, to: 'ltc1q...', amountUnits: 150000n, feeUnitsPerVbyte: 10n, change })
 * // ok({ psbt: Uint8Array [0x70, 0x73, 0x62, 0x74, 0xff, ...], feeUnits: 1410n, vsize: 141, changeUnits: ... })
 */
export function buildRefundPsbt(plan: RefundPsbtPlan): Result<RefundPsbt> {
  const kind = receiveAddressKind(plan.chain, plan.net).type;
  const to = destinationScript(plan.to, plan.chain, plan.net);
  if (!to) return err(new AppError('CONFLICT', `The refund address ${plan.to} cannot be paid by a PSBT`));
  const total = plan.inputs.reduce((sum, i) => sum + i.amountUnits, 0n);
  const baseVbytes = OVERHEAD_VBYTES[kind] + INPUT_VBYTES[kind] * plan.inputs.length + outputVbytes(to);
  const withChange = baseVbytes + outputVbytes(plan.change.script);
  const feeWithChange = BigInt(withChange) * plan.feeUnitsPerVbyte;
  const feeAlone = BigInt(baseVbytes) * plan.feeUnitsPerVbyte;
  if (total < plan.amountUnits + feeAlone)
    return err(
      new AppError(
        'CONFLICT',
        `The unspent outputs at hand (the payment's, then the merchant's other deposits at its key) hold ${total} units, short of the refund's ${plan.amountUnits} plus a fee of ${feeAlone} (${plan.feeUnitsPerVbyte} units/vB): send the refund from the wallet with its payment URI`,
      ),
    );
  const change = total - plan.amountUnits - feeWithChange;
  const keepChange = change >= DUST[plan.chain];
  const tx = new Transaction({ version: 2 });
  for (const i of plan.inputs) {
    tx.addInput({
      txid: i.txid,
      index: i.vout,
      // Signers of SegWit v0 inputs sign the amount from witness_utxo; hardware wallets since the 2020 fee attack
      // (CVE-2020-14199) also want the full previous transaction to trust that amount, so both go in.
      ...(kind === 'p2wpkh' ? { witnessUtxo: { script: i.script, amount: i.amountUnits } } : {}),
      nonWitnessUtxo: i.previousTx,
      bip32Derivation: [[i.key.pubkey, { fingerprint: i.key.fingerprint, path: i.key.path }]],
      // Opts in to replace-by-fee (BIP125): a refund stuck at a low estimate can be bumped by the wallet.
      sequence: 0xfffffffd,
    });
  }
  tx.addOutput({ script: to, amount: plan.amountUnits });
  if (keepChange)
    tx.addOutput({
      script: plan.change.script,
      amount: change,
      bip32Derivation: [
        [plan.change.key.pubkey, { fingerprint: plan.change.key.fingerprint, path: plan.change.key.path }],
      ],
    });
  return ok({
    psbt: tx.toPSBT(0),
    feeUnits: keepChange ? feeWithChange : total - plan.amountUnits,
    feeUnitsPerVbyte: plan.feeUnitsPerVbyte,
    vsize: keepChange ? withChange : baseVbytes,
    changeUnits: keepChange ? change : 0n,
  });
}
