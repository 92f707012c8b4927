import type { Migration } from 'kysely';
import * as core from './0001-core.js';
import * as webhooks from './0002-webhooks.js';
import * as xpubs from './0003-xpubs.js';
import * as dropinSessions from './0004-dropin-sessions.js';
import * as changeNotifications from './0005-change-notifications.js';
import * as idempotencyPayment from './0006-idempotency-payment.js';
import * as pendingDeliveries from './0007-pending-deliveries.js';
import * as dropChangeNotifications from './0008-drop-change-notifications.js';
import * as dashboard from './0009-dashboard.js';
import * as retentionAndBalances from './0010-retention-and-balances.js';
import * as chainXpubs from './0011-chain-xpubs.js';
import * as forwarders from './0012-forwarders.js';
import * as paymentSearch from './0013-payment-search.js';
import * as accountsAudit from './0014-accounts-audit.js';
import * as monero from './0015-monero.js';
import * as twoFactor from './0016-two-factor.js';
import * as mail from './0018-mail.js';
import * as priceCurrencies from './0019-price-currencies.js';
import * as reusableLinks from './0020-reusable-links.js';
import * as refunds from './0021-refunds.js';
import * as walk from './0023-walk.js';
import * as paymentExceptions from './0024-payment-exceptions.js';
import * as notifications from './0025-notifications.js';

/**
 * Versioned migrations, applied in name order (Kysely sorts them). Add a file per change; never edit one that has shipped.
 */
export const migrations: Record<string, Migration> = {
  '0001-core': core,
  '0002-webhooks': webhooks,
  '0003-xpubs': xpubs,
  '0004-dropin-sessions': dropinSessions,
  '0005-change-notifications': changeNotifications,
  '0006-idempotency-payment': idempotencyPayment,
  '0007-pending-deliveries': pendingDeliveries,
  '0008-drop-change-notifications': dropChangeNotifications,
  '0009-dashboard': dashboard,
  '0010-retention-and-balances': retentionAndBalances,
  '0011-chain-xpubs': chainXpubs,
  '0012-forwarders': forwarders,
  '0013-payment-search': paymentSearch,
  '0014-accounts-audit': accountsAudit,
  '0015-monero': monero,
  '0016-two-factor': twoFactor,
  '0018-mail': mail,
  '0019-price-currencies': priceCurrencies,
  '0023-walk': walk,
  '0020-reusable-links': reusableLinks,
  '0021-refunds': refunds,
  '0024-payment-exceptions': paymentExceptions,
  '0025-notifications': notifications,
};
