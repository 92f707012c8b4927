import { iso, isoOrNull } from '../core/clock.js';
import type { Mail, MailAttempt } from '../core/mail/outbox.js';

/**
 * A mail as owners see it in the mail log: who, what, its state and each attempt's answer from the relay. `body`
 * (the plain-text part) only where asked: without a relay it is how an invitation is handed over by hand.
 */
export function mailView(m: Mail, attempts: MailAttempt[], body = false) {
  return {
    id: m.id,
    kind: m.kind,
    to: m.to_address,
    subject: m.subject,
    status: m.status,
    attempts: m.attempts,
    last_code: m.last_code,
    last_response: m.last_response,
    next_attempt_at: m.status === 'pending' ? isoOrNull(m.next_attempt_at) : null,
    created_at: iso(m.created_at),
    sent_at: isoOrNull(m.sent_at),
    attempt_log: attempts.map((a) => ({
      attempt_no: a.attempt_no,
      started_at: iso(a.started_at),
      duration_ms: a.duration_ms,
      code: a.code,
      response: a.response,
    })),
    ...(body ? { text: m.text_body } : {}),
  };
}
