/**
 * The dashboard API's answers by name, for the dashboard (dashboard/) to import type-only: each type is the return
 * type of the function that builds the answer, so a field renamed or dropped here fails `tsc` where the page reads
 * it (dashboard-api/view-types.test-d.ts proves it). Types only: nothing here reaches the browser bundle.
 */
import type { MeView } from './me.js';
import type { PaymentDetail } from './routes/payments/get-payment.js';
import type { DashDelivery } from './views.js';

export type { MeView as Me } from './me.js';
export type { AuditEntries } from './routes/audit/list-audit.js';
export type { Balance } from './routes/balances/balances.js';
export type { KeyView } from './routes/keys/list-keys.js';
export type { AssetOption } from './routes/list-assets.js';
export type { Overview } from './routes/overview/overview.js';
export type { LiveEvent } from './routes/payment-events.js';
export type { PaymentDetail } from './routes/payments/get-payment.js';
export type { PaymentsPage } from './routes/payments/list-payments.js';
export type { Sale } from './routes/pos/pos-create-payment.js';
export type { Sales } from './routes/pos/pos-sales.js';
export type { CreatedLink } from './routes/sell/create-payment-link.js';
export type { Tolerance } from './routes/settings/underpaid-tolerance.js';
export type { NetworkSweeps } from './routes/sweeps/list-forwarders.js';
export type { TwoFactorSetup } from './routes/users/two-factor-setup.js';
export type { Endpoint } from './routes/webhooks/webhook-endpoint.js';
export type { DashDelivery as Delivery, PaymentRow } from './views.js';

export type MerchantRef = MeView['merchants'][number];
export type Attempt = DashDelivery['attempts'][number];
/** A refund as the payment's page lists it, with its send QR. */
export type PaymentRefund = PaymentDetail['refunds'][number];
