import type { ApiDeps } from '../api-kit/deps.js';
import { familyOf } from '../core/chains/families.js';
import type { Payment } from '../core/payments/payment.js';
import type { PaymentUriInput } from '../core/qr/payment-uri.js';

/**
 * What a browser wallet needs to pay a payment (docs/architecture.md "Wallet pay"), or null when wallet pay is not
 * offered: test mode (the sandbox chain is no chain a wallet knows), a family without it (only EVM has it: its
 * descriptor's `walletPay`), a network not configured live.
 */
export function walletView(deps: Pick<ApiDeps, 'chains' | 'catalog'>, p: Payment, asked: PaymentUriInput) {
  if (p.mode !== 'live') return null;
  return familyOf(asked.family)?.walletPay?.(deps.chains, deps.catalog, p, asked) ?? null;
}
