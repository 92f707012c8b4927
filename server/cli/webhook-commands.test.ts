import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from '../testing/harness.js';

const run = promisify(execFile);
let t: TestService;
let rcv: TestReceiver;

/** The real CLI in its own process, against the running service's store; the service picks work up by polling. */
async function admin(args: string[]) {
  try {
    const r = await run('npx', ['tsx', 'server/admin-cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: t.service.config.DATABASE_URL },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

beforeAll(async () => {
  rcv = await startReceiver('x');
  t = await startTestService({ start: true, webhookUrl: rcv.url, env: { WEBHOOK_POLL_MS: '50' } });
  rcv.secret = t.merchant.webhook_secret;
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
});

describe('admin CLI: webhooks', () => {
  it('sends a test event, lists it with its attempts, and redelivers it under the same id', async () => {
    const m = t.merchant.merchant_id;
    const sent = await admin(['webhook', 'test', '--merchant', m, '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const { delivery_id } = JSON.parse(sent.stdout);
    await rcv.waitFor((all) => all.some((x) => x.headers['x-service-delivery'] === delivery_id));
    expect(rcv.received[0]?.verified).toBe(true);
    expect(rcv.received[0]?.json.test).toBe(true);

    // Wait on the store (cheap), then read the log through the CLI once per format.
    await expect
      .poll(async () => (await t.api(`/api/v1/webhook-deliveries/${delivery_id}`)).json.data.status, {
        timeout: 30_000,
      })
      .toBe('succeeded');
    const ok = JSON.parse(
      (await admin(['webhook', 'deliveries', '--merchant', m, '--status', 'succeeded', '--json'])).stdout,
    );
    expect(ok).toHaveLength(1);
    const list = JSON.parse((await admin(['webhook', 'deliveries', '--merchant', m, '--json'])).stdout);
    expect(list[0]).toMatchObject({ delivery_id, status: 'succeeded', attempt_count: 1, test: true });
    expect(list[0].attempts[0]).toMatchObject({ attempt: 1, response_code: 200, error: null });
    const text = await admin(['webhook', 'deliveries', '--merchant', m]);
    expect(text.stdout).toContain(delivery_id);
    expect(text.stdout).toMatch(/#1 .* 200 /);

    const again = await admin(['webhook', 'redeliver', '--delivery', delivery_id]);
    expect(again.code, again.stderr).toBe(0);
    await rcv.waitFor((all) => all.filter((x) => x.headers['x-service-delivery'] === delivery_id).length === 2);
  }, 180_000);

  it('rotates the webhook secret: the next event verifies with the new secret only', async () => {
    const m = t.merchant.merchant_id;
    const r = await admin(['webhook', 'rotate-secret', '--merchant', m, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { webhook_secret } = JSON.parse(r.stdout);
    expect(webhook_secret).toMatch(/^whsec_/);
    expect(webhook_secret).not.toBe(t.merchant.webhook_secret);
    rcv.secret = webhook_secret;
    const before = rcv.received.length;
    const sent = JSON.parse((await admin(['webhook', 'test', '--merchant', m, '--json'])).stdout);
    await rcv.waitFor((all) => all.slice(before).some((x) => x.headers['x-service-delivery'] === sent.delivery_id));
    expect(rcv.received.slice(before).every((x) => x.verified)).toBe(true);
  }, 120_000);

  it('re-enables an endpoint disabled by 410, and its held delivery goes out', async () => {
    const m = t.merchant.merchant_id;
    rcv.reply = () => ({ status: 410 });
    const before = rcv.received.length;
    const sent = JSON.parse((await admin(['webhook', 'test', '--merchant', m, '--json'])).stdout);
    await rcv.waitFor((all) => all.length > before);
    await expect
      .poll(async () => (await t.api('/api/v1/webhook-endpoint')).json.data.enabled, { timeout: 10_000 })
      .toBe(false);
    rcv.reply = () => ({ status: 200 });
    const en = await admin(['webhook', 'enable', '--merchant', m]);
    expect(en.code, en.stderr).toBe(0);
    await rcv.waitFor((all) => all.filter((x) => x.headers['x-service-delivery'] === sent.delivery_id).length === 2);
    await expect
      .poll(async () => (await t.api(`/api/v1/webhook-deliveries/${sent.delivery_id}`)).json.data.status, {
        timeout: 10_000,
      })
      .toBe('succeeded');
  }, 120_000);

  it('says what is wrong and exits 2 on bad usage', async () => {
    const bad = await admin(['webhook', 'deliveries', '--merchant', t.merchant.merchant_id, '--status', 'bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--status/);
    const missing = await admin(['webhook', 'redeliver', '--delivery', 'dlv_nope']);
    expect(missing.code).toBe(2);
    // Save time: a live merchant's URL must be https and public (checked again at every connect).
    const before = (await t.service.deps.db.selectFrom('merchants').select('id').execute()).length;
    for (const [url, problem] of [
      ['http://shop.example/hook', /--webhook-url: live-mode webhook URLs must use https/],
      ['https://169.254.169.254/x', /not a public address/],
    ] as const) {
      const r = await admin(['merchant', 'create', '--name', 'L', '--mode', 'live', '--webhook-url', url]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(problem);
    }
    expect((await t.service.deps.db.selectFrom('merchants').select('id').execute()).length).toBe(before);
    const help = await admin(['webhook', 'rotate-secret', '--help']);
    expect(help.stdout).toMatch(/--merchant/);
  }, 120_000);
});
