/**
 * The dashboard API's answers by name, for the dashboard (dashboard/) to import type-only: each type is the return
 * type of the function that builds the answer, so a field renamed or dropped here fails `tsc` where the page reads
 * it (dashboard-api/view-types.test-d.ts proves it). Types only: nothing here reaches the browser bundle.
 */
import type { z } from 'zod';
import type { reusableLinkDetailSchema, reusableLinkSchema } from '../api-kit/link-view-schemas.js';
import type { mailView } from './mail-view.js';
import type { MeView } from './me.js';
import type { linkDetailAnswer } from './routes/links/get-link.js';
import type { mailLogView } from './routes/mail/list-mails.js';
import type { mailSettingsAnswer } from './routes/mail/mail-settings.js';
import type { testMailView } from './routes/mail/send-test-mail.js';
import type { notifyPrefsView } from './routes/notifications/notification-prefs.js';
import type { PaymentDetail } from './routes/payments/get-payment.js';
import type { createdMerchantView } from './routes/settings/create-merchant.js';
import type { networkView } from './routes/settings/networks.js';
import type { keyPreviewView } from './routes/settings/preview-xpub.js';
import type { firstAddresses, settingsView } from './routes/settings/read-settings.js';
import type { invitedView } from './routes/users/invite-user.js';
import type { memberView } from './routes/users/list-users.js';
import type { DashDelivery } from './views.js';

export type { RefundPsbtView as RefundPsbt } from '../core/chains/family.js';
export type { IssuedClaim as ClaimLink } from '../core/refunds/claim-link.js';
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

/** The mail log and one mail of it (with its plain-text body when read alone). */
export type MailLog = ReturnType<typeof mailLogView>;
export type MailEntry = ReturnType<typeof mailView>;
export type MailSettings = ReturnType<typeof mailSettingsAnswer>;
export type TestMail = ReturnType<typeof testMailView>;
export type NotifyPrefs = ReturnType<typeof notifyPrefsView>;
export type Member = ReturnType<typeof memberView>;
export type Invited = ReturnType<typeof invitedView>;

/** The settings page's data, its parts, and the answers of its forms. */
export type Settings = Awaited<ReturnType<typeof settingsView>>;
export type UtxoKey = Settings['utxo_keys'][number];
export type Derived = ReturnType<typeof firstAddresses>[number];
export type KeyPreview = ReturnType<typeof keyPreviewView>;
export type NewStore = ReturnType<typeof createdMerchantView>;
export type Network = Awaited<ReturnType<typeof networkView>>;

/** A reusable link as sent: its response schema's type (the exact amounts arrive as JSON numbers). */
export type ReusableLink = z.infer<typeof reusableLinkSchema>;
/** A link's page: the link with totals (its schema's type) and its payments as the builder makes them. */
export type LinkDetail = Omit<Awaited<ReturnType<typeof linkDetailAnswer>>, 'link'> & {
  link: z.infer<typeof reusableLinkDetailSchema>;
};
