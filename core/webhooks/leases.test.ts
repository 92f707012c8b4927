import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { buildService, type Service } from '../../server/service.js';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { ManualClock } from '../clock.js';
import { freePort } from '../testing/free-port.js';
import { enableEndpoint } from './deliveries.js';
import { sendTestEvent } from './test-event.js';
import { startReceiver, type TestReceiver } from './testing/receiver.js';

let a: TestService;
let b: Service;
let c: ChildProcess | undefined;
let rcv: TestReceiver;

beforeAll(async () => {
  rcv = await startReceiver('x');
  // Three dispatchers on one store, all polling hard: two service instances here, and the real service
  // (`server/main.ts`) in a process of its own, so claims also race across processes.
  const env = { WEBHOOK_POLL_MS: '10', WEBHOOK_CONCURRENCY_PER_ENDPOINT: '32' };
  a = await startTestService({ start: true, webhookUrl: rcv.url, env });
  b = await buildService(
    loadConfig({ DATABASE_URL: a.service.config.DATABASE_URL, LOG_LEVEL: 'silent', PORT: '0', ...env }),
  );
  b.start();
  const port = await freePort();
  c = spawn('npx', ['tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: a.service.config.DATABASE_URL,
      PORT: String(port),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const end = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > end) throw new Error('second service process did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  rcv.secret = a.merchant.webhook_secret;
}, 90_000);
afterAll(async () => {
  if (c?.pid) {
    const exited = new Promise((r) => c?.once('exit', r));
    process.kill(-c.pid, 'SIGTERM');
    await exited;
  }
  await b?.stop();
  await a?.close();
  await rcv?.close();
});

describe('leases across processes', () => {
  it('never sends the same attempt twice when dispatchers in two processes race for the same rows', async () => {
    // A slow-ish receiver widens the window in which a second claimer could sneak in.
    rcv.reply = () => ({ status: 200, delayMs: 3 });
    const db = a.service.deps.db;
    // Queued while the endpoint is disabled, then released at once: every dispatcher sees all 300 rows due together.
    await db.updateTable('merchants').set({ webhook_enabled: 0 }).where('id', '=', a.merchant.merchant_id).execute();
    const ids = new Set<string>();
    for (let i = 0; i < 300; i++) ids.add((await sendTestEvent(db, a.merchant.merchant_id, Date.now())).id);
    await enableEndpoint(db, a.merchant.merchant_id, Date.now());
    a.service.webhooks.wake();
    b.webhooks.wake();
    await expect
      .poll(
        async () =>
          (
            await a.service.deps.db
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('status', '=', 'succeeded')
              .execute()
          ).length,
        { timeout: 30_000, interval: 100 },
      )
      .toBe(300);
    const got = rcv.received.map((x) => String(x.headers['x-service-delivery']));
    expect(new Set(got)).toEqual(ids);
    expect(got).toHaveLength(300); // each exactly once
    const attempts = await a.service.deps.db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'attempt_no'])
      .execute();
    expect(attempts).toHaveLength(300);
    expect(attempts.every((x) => x.attempt_no === 1)).toBe(true);
  }, 60_000);
});

describe('a crashed holder', () => {
  let t: TestService;
  afterAll(async () => {
    await t?.close();
  });

  it('leaves its leased row alone until the lease runs out, then another process delivers it with the same id', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    t = await startTestService({ clock, webhookUrl: rcv.url });
    rcv.secret = t.merchant.webhook_secret;
    rcv.received.length = 0;
    rcv.reply = () => ({ status: 200 });
    const d = await sendTestEvent(t.service.deps.db, t.merchant.merchant_id, clock.now());
    // What a process killed mid-attempt leaves behind: a lease it will never release, the attempt counted.
    await t.service.deps.db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: 'wrk_dead', lease_until: clock.now() + 15_000, attempts: 1 })
      .where('id', '=', d.id)
      .execute();
    await t.service.webhooks.settle();
    expect(rcv.received).toHaveLength(0);
    clock.advance(15_001);
    await t.service.webhooks.settle();
    expect(rcv.received.map((x) => x.headers['x-service-delivery'])).toEqual([d.id]);
    const row = await t.service.deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2, lease_owner: null });
  });
});
