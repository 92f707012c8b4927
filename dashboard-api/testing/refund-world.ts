import { afterAll, beforeAll, expect } from 'vitest';
import { ManualClock } from '../../core/clock.js';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { type DashClient, userOf } from './client.js';

/** A customer's bitcoin address the refund tests send to. */
export const CUSTOMER = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

export interface RefundWorld {
  clock: ManualClock;
  t: TestService;
  owner: DashClient;
  viewer: DashClient;
  /** The merchant's dashboard API path. */
  base: string;
  /** A 50-unit BTC payment paid in full on the sandbox chain and confirmed (2 blocks); returns its id. */
  paidPayment: () => Promise<string>;
  /** The merchant's audit entries of one action, as its owner reads them. */
  // biome-ignore lint/suspicious/noExplicitAny: the entries as the API answers them, read by the tests' assertions
  auditOf: (action: string) => Promise<any>;
}

/**
 * The dashboard refund tests' world: one service on a manual clock with an owner and a viewer of its merchant,
 * started before the file's tests and closed after them (the hooks are registered here). Its fields are set once
 * the tests run.
 */
export function refundWorld(): RefundWorld {
  const w = {
    clock: new ManualClock(Date.UTC(2026, 10, 27, 9)),
    paidPayment: () => paidPayment(w.t),
    auditOf: async (action: string) => (await w.owner.call(`${w.base}/audit?action=${action}`)).json.data.entries,
  } as RefundWorld;
  beforeAll(async () => {
    w.t = await startTestService({ clock: w.clock });
    w.owner = await userOf(w.t, w.t.merchant.merchant_id, 'owner@shop.example');
    w.viewer = await userOf(w.t, w.t.merchant.merchant_id, 'viewer@shop.example', 'viewer');
    w.base = `/merchants/${w.t.merchant.merchant_id}`;
  });
  afterAll(async () => {
    await w.t?.close();
  });
  return w;
}

/** A 50-unit BTC payment paid in full on the sandbox chain and confirmed (2 blocks); returns its id. */
async function paidPayment(t: TestService): Promise<string> {
  const r = await t.api('/api/v1/payments', { body: { amount: 50, currency: 'btc', email: 'b@buyer.example' } });
  const { pay_address: address, pay_amount: amount } = r.json.data.blockchain;
  expect((await t.api('/api/v1/sandbox/transfers', { body: { currency: 'btc', address, amount } })).status).toBe(201);
  expect((await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } })).status).toBe(200);
  return r.json.data.payment.payment_id;
}
