import { describe, expect, it } from 'vitest';
import { type DepositFacts, derivePaymentState, type PaymentFacts } from './lifecycle.js';

/*
 * The underpaid tolerance in the lifecycle's pure function (issue 30 item 5): the larger of the basis points and the
 * merchant's USD amount in base units, and never more than half the amount due.
 */

const payment = (over: Partial<PaymentFacts> = {}): PaymentFacts => ({
  status: 'waiting',
  payCurrency: 'BTC',
  payAmountUnits: 10_000n,
  validUntil: 1_000,
  confirmedAt: null,
  underpaidToleranceBps: 0,
  ...over,
});
const deposit = (amountUnits: bigint, confirmations = 1): DepositFacts => ({
  asset: 'BTC',
  amountUnits,
  confirmations,
  late: false,
  removed: false,
});

describe('the underpaid tolerance', () => {
  it('finishes a payment short by no more than the larger of the two tolerances', () => {
    const p = payment({ underpaidToleranceBps: 100, underpaidToleranceUnits: 300n });
    expect(derivePaymentState(p, [deposit(9_700n)], 10, 1).status).toBe('finished');
    expect(derivePaymentState(p, [deposit(9_699n)], 10, 1).status).toBe('partially_paid');
  });

  it('accepts at most half the amount due short, whatever the tolerance: dust never finishes a payment', () => {
    for (const p of [payment({ underpaidToleranceUnits: 10_000n }), payment({ underpaidToleranceBps: 10_000 })]) {
      expect(derivePaymentState(p, [deposit(1n)], 10, 1)).toMatchObject({
        status: 'partially_paid',
        statusDetail: 'underpaid',
      });
      expect(derivePaymentState(p, [deposit(4_999n)], 10, 1).status).toBe('partially_paid');
      expect(derivePaymentState(p, [deposit(5_000n)], 10, 1)).toMatchObject({
        status: 'finished',
        statusDetail: 'underpaid',
      });
      expect(derivePaymentState(p, [], 2_000, 1).status).toBe('expired');
    }
  });
});
