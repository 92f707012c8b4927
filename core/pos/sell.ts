import type { CoreDeps } from '../deps.js';
import { invalid } from '../errors.js';
import type { Merchant } from '../merchants/merchants.js';
import { fromUnits, usdToCents } from '../money/decimal.js';
import { createPayment } from '../payments/create-payment.js';
import type { Payment } from '../payments/payment.js';
import { insertPosSale } from './store.js';

/** A sale at the counter: the keypad's amount, the tip chosen, the asset the customer pays with. */
export interface CounterSale {
  /** Exact decimal text (hundredths). */
  amount: string;
  tip: string;
  currency: string;
  /** The customer's address for a receipt, when they give one at the counter. */
  customerEmail?: string | undefined;
  /**
   * The signed-in seller: without a customer address their e-mail fills the payment's required e-mail, and such a
   * payment never gets customer mail (core/mail/customer-mails.ts), so the cashier receives no receipts.
   */
  userId: string;
  userEmail: string;
  originIp?: string | undefined;
}

/**
 * Takes a payment at the point of sale: the price is amount + tip, exactly (hundredths), priced and stored by
 * createPayment like any payment, and recorded as a sale of this seller in the same transaction.
 */
export async function sellAtCounter(deps: CoreDeps, merchant: Merchant, sale: CounterSale): Promise<Payment> {
  const amount = usdToCents(sale.amount);
  const tip = usdToCents(sale.tip);
  if (amount === null || amount <= 0n) throw invalid('amount', 'Enter the amount to charge');
  if (tip === null || tip < 0n) throw invalid('tip', 'A tip is zero or more');
  return createPayment(
    deps,
    merchant,
    {
      kind: 'direct',
      priceAmount: fromUnits(amount + tip, 2),
      currency: sale.currency,
      email: sale.customerEmail || sale.userEmail,
      orderDescription: tip > 0n ? `Point of sale (tip ${fromUnits(tip, 2)})` : 'Point of sale',
      originIp: sale.originIp,
    },
    (trx, p) =>
      insertPosSale(trx, {
        paymentId: p.id,
        merchantId: merchant.id,
        userId: sale.userId,
        tipAmount: fromUnits(tip, 2),
        createdAt: p.created_at,
      }),
  );
}
