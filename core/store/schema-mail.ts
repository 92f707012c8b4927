/** Tables of e-mail (migration 0018-mail). */

export type MailStatus = 'pending' | 'sent' | 'failed';

/** One mail; `message_id` is its Message-ID on every attempt. */
export interface MailOutboxTable {
  id: string;
  /** The merchant it is about (its owners read it in the mail log); null for a service-wide mail. */
  merchant_id: string | null;
  kind: string;
  to_address: string;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  message_id: string;
  dedupe_key: string | null;
  status: MailStatus;
  attempts: number;
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  last_code: number | null;
  last_response: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

export interface MailAttemptTable {
  mail_id: string;
  attempt_no: number;
  started_at: number;
  duration_ms: number;
  /** The relay's reply code (250, 451, 550), null when no reply came (connection refused, timeout). */
  code: number | null;
  response: string | null;
}

export interface MerchantMailSettingTable {
  merchant_id: string;
  sender_name: string | null;
  reply_to: string | null;
  receipts: number;
  underpaid: number;
  expired_partly_paid: number;
  updated_at: number;
}

export interface DashboardKnownClientTable {
  user_id: string;
  address_hash: string;
  first_seen_at: number;
}

export interface PaymentMailLocaleTable {
  payment_id: string;
  locale: string;
}
