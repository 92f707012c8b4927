import type { Generated } from 'kysely';
import type { FiatCode } from '../money/fiat.js';
import type { PaymentStatus, StatusDetail } from '../payments/status.js';
import type {
  DashboardMembershipTable,
  DashboardPasswordTokenTable,
  DashboardPendingSignInTable,
  DashboardRecoveryCodeTable,
  DashboardSessionTable,
  DashboardSignInFailureTable,
  DashboardTwoFactorTable,
  DashboardUserTable,
  MerchantTwoFactorRequirementTable,
} from './schema-dashboard-users.js';
import type { PaymentExceptionTable } from './schema-exceptions.js';
import type { EvmForwarderTable, EvmSweepTable, MerchantPayoutTable } from './schema-forwarders.js';
import type { PaymentLinkPaymentTable, PaymentLinkTable, PosSaleTable } from './schema-links.js';
import type {
  DashboardKnownClientTable,
  MailAttemptTable,
  MailOutboxTable,
  MerchantMailSettingTable,
  PaymentMailLocaleTable,
} from './schema-mail.js';
import type {
  MemberNotificationPrefTable,
  NotificationDigestItemTable,
  NotificationDigestTable,
  NotificationEpisodeTable,
} from './schema-notifications.js';
import type { RefundTable, RefundTotalTable, RefundTransferTable } from './schema-refunds.js';
import type { CustomerCurrencyChoiceTable } from './schema-walk.js';

// Tables that moved to their area's file stay importable from here, as before the split.
export type * from './schema-dashboard-users.js';
export type * from './schema-forwarders.js';

/**
 * One schema for SQLite and PostgreSQL. Portable column types only: text, integer, bigint.
 * - Timestamps are epoch milliseconds (bigint), rendered as ISO 8601 at the API edge.
 * - Money is base units as decimal text (wei exceed 64 bits), summed in JS with bigint.
 * - Booleans are integers 0/1 so both dialects read them alike.
 */
export interface MerchantTable {
  id: string;
  sub_partner_id: string;
  name: string;
  mode: 'test' | 'live';
  webhook_url: string | null;
  webhook_secret: string;
  webhook_enabled: number;
  allowed_origins: string; // JSON array of origins
  underpaid_tolerance_bps: number;
  active: number;
  created_at: number;
  updated_at: number;
  /** Price currency when a request names none (migration 0019, core/money/fiat.ts); 'USD' unless set. */
  default_currency: Generated<string>;
  /** Accepted shortfall in USD, decimal text (migration 0024); '0' unless set. */
  underpaid_tolerance_usd: Generated<string>;
}

export interface ApiKeyTable {
  id: string;
  merchant_id: string;
  kind: 'secret' | 'public';
  prefix: string; // displayable start of the key, e.g. "sk_test_Ab12"
  key_hash: string; // sha256 hex of the whole key
  active: number;
  created_at: number;
  deactivated_at: number | null;
  /** When the key last authenticated a request, to the minute (core/merchants/key-usage.ts). */
  last_used_at: number | null;
  /** The merchant's name for the key (migration 0014). */
  label: string | null;
  /** End of a rotated key's grace period: refused from then on though `active` (null: no end). */
  expires_at: number | null;
}

export interface PaymentTable {
  id: string;
  invoice_id: string;
  purchase_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  kind: 'direct' | 'link';
  status: PaymentStatus;
  status_detail: StatusDetail;
  sequence: number;
  price_amount: string;
  price_currency: FiatCode;
  pay_currency: string;
  network: string;
  decimals: number;
  precision: number;
  pay_amount_units: string;
  actually_paid_units: string;
  rate: string;
  pay_address: string;
  extra_id: string | null;
  address_index: number | null;
  smart_contract: string | null;
  customer_name: string | null;
  customer_email: string;
  order_id: string | null;
  order_description: string | null;
  success_url: string | null;
  cancel_url: string | null;
  ipn_callback_url: string | null;
  origin_ip: string | null;
  is_fixed_rate: number;
  is_fee_paid_by_user: number;
  time_limit: number;
  created_at: number;
  updated_at: number;
  expires_at: number;
  valid_until: number;
  confirmed_at: number | null;
}

export interface DepositTable {
  id: string;
  payment_id: string;
  network: string;
  txid: string;
  log_index: number;
  asset: string;
  amount_units: string;
  block_height: number | null;
  block_hash: string | null;
  first_seen_at: number;
  late: number;
  removed: number;
  updated_at: number;
}

/** Last block the watcher processed per chain (e.g. "sandbox:btc", "evm:1"), plus recent hashes for reorgs. */
export interface ChainBlockTable {
  chain: string;
  height: number;
  hash: string;
  parent_hash: string | null;
}

export interface ChainCheckpointTable {
  chain: string;
  height: number;
  hash: string;
  updated_at: number;
}

export interface SandboxBlockTable {
  network: string;
  height: number;
  hash: string;
  parent_hash: string;
  created_at: number;
}

export interface SandboxTransferTable {
  txid: string;
  network: string;
  currency: string;
  address: string;
  extra_id: string | null;
  amount_units: string;
  block_height: number | null;
  created_at: number;
  seq: Generated<number>;
}

export interface IdempotencyKeyTable {
  merchant_id: string;
  key: string;
  route: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: number;
  /** The payment the claimed request creates (null on claims made before migration 0006). */
  payment_id: string | null;
}

/** The outbox: written in the same transaction as the payment change it describes. */
export interface PaymentEventTable {
  id: string;
  payment_id: string;
  merchant_id: string;
  sequence: number;
  status: string;
  payload: string;
  created_at: number;
}

/** A drop-in checkout session (docs/architecture.md drop-in contract); `token_hash` is sha256 of the session token. */
export interface DropinSessionTable {
  id: string;
  merchant_id: string;
  token_hash: string;
  price_amount: string;
  price_currency: string;
  crypto_currency: string | null;
  customer_email: string;
  customer_name: string | null;
  reference: string | null;
  origin: string | null;
  payment_id: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

/** Service-wide settings of the drop-in kept across restarts (hosted-page signing secret, demo public key). */
export interface DropinSettingTable {
  key: string;
  value: string;
}

/** One webhook delivery per event and endpoint; its id is the X-Service-Delivery header, reused on every attempt. */
export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  merchant_id: string;
  payment_id: string | null;
  sequence: number | null;
  /** `refund`: a `refund.updated` event (its `payment_id` is the refunded payment, `sequence` the refund's). */
  kind: 'payment' | 'test' | 'refund';
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  schedule_step: number;
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

export interface WebhookAttemptTable {
  delivery_id: string;
  attempt_no: number;
  url: string;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  next_attempt_at: number | null;
}

/**
 * A live merchant's extended public key per chain: `evm` (every EVM network) or `btc`, `ltc`, `doge`. Payment N on
 * that chain pays to its child 0/N, N taken from `next_index`.
 */
export interface MerchantXpubTable {
  merchant_id: string;
  chain: string;
  xpub: string;
  next_index: Generated<number>;
  /**
   * Chain `xmr` only: the private view key (hex), a secret never shown again once set (migration 0015). Encrypted at
   * rest like every column of core/secrets/secret-columns.ts: this type is what queries see, opened.
   */
  view_key: string | null;
  created_at: number;
  updated_at: number;
}

/** One audited change to a merchant (core/audit/audit-log.ts). */
export interface AuditLogTable {
  id: string;
  merchant_id: string;
  created_at: number;
  /** Null for the operator's admin CLI. */
  actor_user_id: string | null;
  /** The actor's address when it happened (kept if the user is later renamed or removed). */
  actor_email: string | null;
  action: string;
  /** What was changed: a payment, key or user id, or null for the merchant itself. */
  target: string | null;
  /** JSON object of non-secret facts (new URL, role, label...). */
  details: string;
  client_address: string | null;
}

export interface Database {
  merchants: MerchantTable;
  api_keys: ApiKeyTable;
  audit_log: AuditLogTable;
  payments: PaymentTable;
  deposits: DepositTable;
  chain_blocks: ChainBlockTable;
  chain_checkpoints: ChainCheckpointTable;
  sandbox_blocks: SandboxBlockTable;
  sandbox_transfers: SandboxTransferTable;
  idempotency_keys: IdempotencyKeyTable;
  payment_events: PaymentEventTable;
  merchant_xpubs: MerchantXpubTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  dropin_sessions: DropinSessionTable;
  dropin_settings: DropinSettingTable;
  dashboard_users: DashboardUserTable;
  dashboard_memberships: DashboardMembershipTable;
  dashboard_sessions: DashboardSessionTable;
  dashboard_password_tokens: DashboardPasswordTokenTable;
  dashboard_sign_in_failures: DashboardSignInFailureTable;
  dashboard_two_factor: DashboardTwoFactorTable;
  dashboard_recovery_codes: DashboardRecoveryCodeTable;
  dashboard_pending_sign_ins: DashboardPendingSignInTable;
  merchant_two_factor_requirements: MerchantTwoFactorRequirementTable;
  customer_currency_choices: CustomerCurrencyChoiceTable;
  balance_shares: BalanceShareTable;
  merchant_balances: MerchantBalanceTable;
  merchant_payouts: MerchantPayoutTable;
  evm_forwarders: EvmForwarderTable;
  evm_sweeps: EvmSweepTable;
  mail_outbox: MailOutboxTable;
  mail_attempts: MailAttemptTable;
  merchant_mail_settings: MerchantMailSettingTable;
  dashboard_known_clients: DashboardKnownClientTable;
  payment_mail_locales: PaymentMailLocaleTable;
  payment_links: PaymentLinkTable;
  payment_link_payments: PaymentLinkPaymentTable;
  pos_sales: PosSaleTable;
  refunds: RefundTable;
  refund_totals: RefundTotalTable;
  refund_transfers: RefundTransferTable;
  payment_exceptions: PaymentExceptionTable;
  member_notification_prefs: MemberNotificationPrefTable;
  notification_digest_items: NotificationDigestItemTable;
  notification_digests: NotificationDigestTable;
  notification_episodes: NotificationEpisodeTable;
}

/** A payment's share of its merchant's balance of one asset, in base units (core/payments/balance-totals.ts). */
export interface BalanceShareTable {
  payment_id: string;
  asset: string;
  confirmed_units: string;
  confirmed_late_units: string;
  pending_units: string;
  /** What this payment adds to the merchant's `amount` now (its confirmed or only its late units, by status). */
  counted_units: string;
}

/** A merchant's balance of one asset, kept in the transactions that change it: GET /balances reads these rows. */
export interface MerchantBalanceTable {
  merchant_id: string;
  asset: string;
  amount_units: string;
  pending_units: string;
  updated_at: number;
}
