import { describe, expect, it } from 'vitest';
import { type DepositFacts, derivePaymentState, type PaymentFacts } from './lifecycle.js';

/*
 * The underpaid tolerance in the lifecycle's pure function (issue 30 item 5): the larger of the basis points and the
 * merchant's USD amount in base units (core/payments/tolerance.ts caps it at the amount due, so `need` can be 0).
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

  it('finishes a small payment a USD tolerance covers whole once anything is confirmed, never with nothing', () => {
    const p = payment({ underpaidToleranceUnits: 10_000n });
    expect(derivePaymentState(p, [deposit(1n)], 10, 1)).toMatchObject({
      status: 'finished',
      statusDetail: 'underpaid',
    });
    expect(derivePaymentState(p, [deposit(1n, 0)], 10, 1).status).toBe('confirming');
    expect(derivePaymentState(p, [], 10, 1).status).toBe('waiting');
    expect(derivePaymentState(p, [], 2_000, 1).status).toBe('expired');
  });
});
