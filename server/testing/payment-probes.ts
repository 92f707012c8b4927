import { expect } from 'vitest';
import type { TestService } from './harness.js';
import { rawNumber, until } from './until.js';

/*
 * What the live suites of every chain family read of a payment while its node moves: its status over the merchant
 * API, its deposits and events in the store, and how far a watcher got. One copy for the EVM, Bitcoin-family and
 * Monero harnesses (core/chains/<family>/testing/), each of which only names its own network.
 */

/** GET /api/v1/payments/{id}, with the exact digits of `actually_paid` as `paid`. */
export async function paymentStatus(s: TestService, id: string, key?: string) {
  const r = await s.api(`/api/v1/payments/${id}`, key ? { key } : {});
  expect(r.status, r.text).toBe(200);
  return { ...r.json.data, paid: rawNumber(r.text, 'actually_paid') } as {
    payment_status: string;
    status_detail: string;
    paid: string;
    confirmed_at: string | null;
    sequence: number;
  };
}

/** Polls the payment until its status is `want`. */
export function waitPaymentStatus(s: TestService, id: string, want: string, key?: string, ms?: number) {
  return until(
    () => paymentStatus(s, id, key),
    (v) => v.payment_status === want,
    ms,
  );
}

/** The payment's deposits as the store holds them, in the order they were seen. */
export function paymentDeposits(s: TestService, id: string) {
  return s.service.deps.db
    .selectFrom('deposits')
    .selectAll()
    .where('payment_id', '=', id)
    .orderBy('first_seen_at')
    .orderBy('log_index')
    .execute();
}

/** The statuses of the payment's events, in order. */
export async function paymentEvents(s: TestService, id: string) {
  const rows = await s.service.deps.db
    .selectFrom('payment_events')
    .select('status')
    .where('payment_id', '=', id)
    .orderBy('sequence')
    .execute();
  return rows.map((r) => r.status);
}

/** Waits until the service's watcher of live `network` has processed `height`. */
export async function watcherReached(s: TestService, network: string, height: number, ms?: number) {
  await until(
    () => s.service.deps.chains.headOf(`live:${network}`),
    (h) => h !== null && h >= height,
    ms,
  );
}
