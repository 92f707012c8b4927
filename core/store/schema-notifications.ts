/** Tables of merchant notifications to dashboard members (migration 0024-notifications). */

export interface MemberNotificationPrefTable {
  user_id: string;
  merchant_id: string;
  /** JSON array of the events chosen (core/notifications/prefs.ts `notifyEvents`). */
  events: string;
  delivery: 'immediate' | 'digest';
  updated_at: number;
}

export interface NotificationDigestItemTable {
  id: string;
  user_id: string;
  merchant_id: string;
  event: string;
  line: string;
  link: string | null;
  /** At most one item per key (one per payment change), like the outbox's dedupe_key. */
  dedupe_key: string | null;
  created_at: number;
  /** The UTC day (YYYY-MM-DD) of the digest that took it; null while waiting. */
  digest_day: string | null;
}

export interface NotificationDigestTable {
  user_id: string;
  merchant_id: string;
  day: string;
  created_at: number;
}

export interface NotificationEpisodeTable {
  key: string;
  opened_at: number;
}
