import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { webhookHeaders } from './sign.js';

let t: TestService;
let child: ChildProcess;
const lines: Record<string, unknown>[] = [];
let url = '';

/** Runs examples/webhook-receiver.ts as a merchant would: its own process, importing the package by name. */
async function startExample(secret: string): Promise<void> {
  child = spawn('npx', ['tsx', 'examples/webhook-receiver.ts'], {
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0', FULFIL_DELAY_MS: '1500' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`example exited with ${code}`)));
    rl.on('line', (l) => {
      const v = JSON.parse(l) as Record<string, unknown>;
      lines.push(v);
      if (typeof v.listening === 'number') resolve(v.listening);
    });
  });
  url = `http://127.0.0.1:${port}/webhooks`;
}

async function until(pred: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`condition not met; receiver said: ${JSON.stringify(lines)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  t = await startTestService({ start: true });
  await startExample(t.merchant.webhook_secret);
  await t.service.deps.db
    .updateTable('merchants')
    .set({ webhook_url: url })
    .where('id', '=', t.merchant.merchant_id)
    .execute();
}, 60_000);
afterAll(async () => {
  // npx -> tsx -> node: end the whole group this test started.
  if (child?.pid) process.kill(-child.pid, 'SIGTERM');
  await t?.close();
});

describe('examples/webhook-receiver.ts', () => {
  it('fulfils once on finished, answers before fulfilling, drops duplicates, stale sequences, forgeries and test events', async () => {
    const created = await t.api('/api/v1/payments', {
      body: { amount: 25, currency: 'btc', email: 'c@example.com', order_id: 'order-42' },
    });
    const d = created.json.data;
    const amount = /"pay_amount":([0-9.]+)/.exec(created.text)?.[1];
    await t.api('/api/v1/sandbox/transfers', { body: { currency: 'btc', address: d.blockchain.pay_address, amount } });
    await until(() => lines.some((l) => l.applied === 'confirming'));
    await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } });
    await until(() => lines.some((l) => l.fulfilled === 'order-42'));
    expect(lines.filter((l) => l.applied)).toEqual([
      { applied: 'confirming', payment_id: d.payment.payment_id, sequence: 2 },
      { applied: 'finished', payment_id: d.payment.payment_id, sequence: 3 },
    ]);

    // The 2xx went out before the 1.5 s of fulfilment work.
    const log = (await t.api(`/api/v1/webhook-deliveries?payment_id=${d.payment.payment_id}`)).json.data.deliveries;
    const fin = log.find((x: { sequence: number }) => x.sequence === 3);
    expect(fin.attempts[0].response_code).toBe(204);
    expect(fin.attempts[0].duration_ms).toBeLessThan(1000);

    // A redelivery of the finished event is a duplicate: no second fulfilment.
    await t.api(`/api/v1/webhook-deliveries/${fin.delivery_id}/redeliver`, { method: 'POST' });
    await until(() => lines.some((l) => l.ignored === 'duplicate' && l.delivery_id === fin.delivery_id));

    // An older event arriving late under a new delivery id is stale.
    const confirming = log.find((x: { sequence: number }) => x.sequence === 2);
    const old = (
      await t.service.deps.db
        .selectFrom('webhook_deliveries')
        .select('payload')
        .where('id', '=', confirming.delivery_id)
        .executeTakeFirstOrThrow()
    ).payload;
    const late = await fetch(url, {
      method: 'POST',
      headers: webhookHeaders(t.merchant.webhook_secret, 'dlv_late_copy', Date.now(), old),
      body: old,
    });
    expect(late.status).toBe(204);
    await until(() => lines.some((l) => l.ignored === 'stale'));

    // A forgery is refused.
    const forged = await fetch(url, {
      method: 'POST',
      headers: webhookHeaders('whsec_wrong', 'dlv_forged', Date.now(), old),
      body: old,
    });
    expect(forged.status).toBe(400);

    // A test event is acknowledged and never fulfilled.
    await t.api('/api/v1/webhook-deliveries/test', { method: 'POST' });
    await until(() => lines.some((l) => l.ignored === 'test'));
    expect(lines.filter((l) => 'fulfilled' in l)).toHaveLength(1);
  }, 60_000);
});
