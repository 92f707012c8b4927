import { iso, isoOrNull } from '../clock.js';
import type { Attempt, Delivery } from './deliveries.js';
import { eventOfKind } from './sign.js';

/** A delivery and its attempts as merchants see them: the delivery log route and the admin CLI print the same. */
export function attemptView(a: Attempt) {
  return {
    attempt: a.attempt_no,
    url: a.url,
    started_at: iso(a.started_at),
    duration_ms: a.duration_ms,
    response_code: a.status_code,
    error: a.error,
    response_excerpt: a.response_excerpt,
    next_attempt_at: isoOrNull(a.next_attempt_at),
  };
}

export function deliveryView(d: Delivery, attempts: Attempt[]) {
  return {
    delivery_id: d.id,
    event_id: d.event_id,
    event: eventOfKind(d.kind),
    test: d.kind === 'test',
    payment_id: d.payment_id,
    sequence: d.sequence,
    status: d.status,
    attempt_count: d.attempts,
    next_attempt_at: d.status === 'pending' ? isoOrNull(d.next_attempt_at) : null,
    last_response_code: d.last_status_code,
    last_error: d.last_error,
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
    delivered_at: isoOrNull(d.delivered_at),
    attempts: attempts.map(attemptView),
  };
}
