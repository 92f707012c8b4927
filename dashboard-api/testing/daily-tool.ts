import { afterAll, beforeAll } from 'vitest';
import { startReceiver, type TestReceiver } from '../../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { type DashClient, userOf } from './client.js';

/*
 * The daily-tool suites' shared set-up (issue 23): the real service over HTTP on the real store with a webhook
 * receiver, an owner and a viewer of its merchant. Each suite file calls setUpDailyTool() once; the bindings below are
 * live, assigned in its beforeAll.
 */

export let t: TestService;
export let receiver: TestReceiver;
export let owner: DashClient;
export let viewer: DashClient;
export let base: string;

/** Starts the receiver and the service, signs in the owner and the viewer, before the file's tests; stops them after. */
export function setUpDailyTool(): void {
  beforeAll(async () => {
    receiver = await startReceiver('');
    t = await startTestService({ start: true, webhookUrl: receiver.url });
    receiver.secret = t.merchant.webhook_secret;
    owner = await userOf(t, t.merchant.merchant_id, 'owner@daily.example');
    viewer = await userOf(t, t.merchant.merchant_id, 'viewer@daily.example', 'viewer');
    base = `/merchants/${t.merchant.merchant_id}`;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
}

export async function create(orderId: string, email: string, key?: string) {
  const r = await t.api('/api/v1/payments', {
    ...(key ? { key } : {}),
    body: { amount: 20, currency: 'btc', email, order_id: orderId },
  });
  return r.json.data as { payment: { payment_id: string }; blockchain: { pay_address: string; pay_amount: number } };
}

/** format.ts `short(id, 8)`: what the payment list shows. */
export const shown = (id: string) => `${id.slice(0, 8)}…${id.slice(-8)}`;
