import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { OutScript, Transaction } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import { buildRefundPsbt, destinationScript, type RefundPsbtPlan } from './psbt.js';
import { keyHashAddress, outputScript } from './utxo-script.js';

/*
 * The PSBT builder's arithmetic and shapes without a node (refund-psbt-live.test.ts signs its PSBTs with
 * litecoind): the customer output is exactly the refund whatever the address kind, change below dust goes to the fee,
 * and a shortfall is refused with the figures. The previous transaction is a real serialised one paying the input.
 */

const account = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).derive("m/84'/0'/0'");
const receive = account.deriveChild(0).deriveChild(5);
const change = account.deriveChild(1).deriveChild(5);
const origin = (k: HDKey, branch: number) => ({
  pubkey: k.publicKey as Uint8Array,
  fingerprint: account.fingerprint,
  path: [branch, 5],
});

function plan(amountUnits: bigint, deposit: bigint, to: string): RefundPsbtPlan {
  const address = keyHashAddress(receive.identifier as Uint8Array, 'btc', 'main');
  const script = outputScript(address, 'btc', 'main') as Uint8Array;
  const prev = new Transaction({ allowUnknownInputs: true });
  prev.addInput({ txid: '11'.repeat(32), index: 0 });
  prev.addOutput({ script, amount: deposit });
  const changeAddress = keyHashAddress(change.identifier as Uint8Array, 'btc', 'main');
  return {
    chain: 'btc',
    net: 'main',
    inputs: [
      { txid: prev.id, vout: 0, amountUnits: deposit, script, previousTx: prev.unsignedTx, key: origin(receive, 0) },
    ],
    to,
    amountUnits,
    feeUnitsPerVbyte: 3n,
    change: { script: outputScript(changeAddress, 'btc', 'main') as Uint8Array, key: origin(change, 1) },
  };
}

// BIP350's taproot and BIP13's P2SH test addresses: the customer's wallet may be any kind.
const TAPROOT = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
const P2SH = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';

describe('buildRefundPsbt', () => {
  it('pays the customer exactly, whatever the address kind, with change above dust and the fee at rate x size', () => {
    for (const to of [TAPROOT, P2SH]) {
      const built = buildRefundPsbt(plan(40_000n, 100_000n, to));
      if (!built.ok) throw built.error;
      const tx = Transaction.fromPSBT(built.value.psbt);
      expect(tx.outputsLength).toBe(2);
      const [customer, back] = [tx.getOutput(0), tx.getOutput(1)];
      expect(customer.amount).toBe(40_000n);
      expect(hex.encode(customer.script as Uint8Array)).toBe(
        hex.encode(destinationScript(to, 'btc', 'main') as Uint8Array),
      );
      expect(OutScript.decode(customer.script as Uint8Array).type).toBe(to === TAPROOT ? 'tr' : 'sh');
      expect(built.value.feeUnits).toBe(3n * BigInt(built.value.vsize));
      expect(back.amount).toBe(100_000n - 40_000n - built.value.feeUnits);
      expect(built.value.changeUnits).toBe(back.amount);
      expect(tx.getInput(0).witnessUtxo?.amount).toBe(100_000n);
      expect(tx.getInput(0).bip32Derivation?.[0]?.[1]).toEqual({ fingerprint: account.fingerprint, path: [0, 5] });
      expect(back.bip32Derivation?.[0]?.[1]).toEqual({ fingerprint: account.fingerprint, path: [1, 5] });
    }
  });

  it('gives change below dust to the fee: one output, exactly the refund', () => {
    // 1 input (68) + overhead (11) + P2SH output (32) = 111 vB; with a P2WPKH change (31) 142 vB at 3 units/vB.
    const built = buildRefundPsbt(plan(100_000n - 142n * 3n - 200n, 100_000n, P2SH));
    if (!built.ok) throw built.error;
    const tx = Transaction.fromPSBT(built.value.psbt);
    expect(tx.outputsLength).toBe(1);
    expect(tx.getOutput(0).amount).toBe(100_000n - 142n * 3n - 200n);
    expect(built.value.changeUnits).toBe(0n);
    expect(built.value.feeUnits).toBe(142n * 3n + 200n);
    expect(built.value.vsize).toBe(111);
  });

  it('refuses outputs that do not cover the refund and its fee, naming both', () => {
    const built = buildRefundPsbt(plan(99_900n, 100_000n, P2SH));
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.error.status).toBe(409);
    expect(built.error.message).toContain(
      "hold 100000 units, short of the refund's 99900 plus a fee of 333 (3 units/vB)",
    );
  });

  it('refuses an address btc-signer cannot read for the network (an ltc1 one on Bitcoin)', () => {
    const built = buildRefundPsbt(plan(1_000n, 100_000n, 'ltc1qg82zk8h9usn2qst6d2n6r0shkurytpkmul4x2z'));
    expect(built.ok).toBe(false);
  });
});
