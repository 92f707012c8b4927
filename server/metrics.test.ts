import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../core/webhooks/testing/receiver.js';
import { startTestService, type TestService } from './testing/harness.js';

/** The value of one series in a Prometheus text answer, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrapeUntil(t: TestService, done: (text: string) => boolean) {
  for (let i = 0; ; i++) {
    const r = await t.api('/metrics', { key: null });
    if (done(r.text) || i === 50) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('GET /metrics on loopback, no token', () => {
  let t: TestService;
  let rcv: TestReceiver;
  beforeAll(async () => {
    rcv = await startReceiver('unknown-yet');
    t = await startTestService({ start: true, webhookUrl: rcv.url });
    rcv.secret = t.merchant.webhook_secret;
  });
  afterAll(async () => {
    await t?.close();
    await rcv?.close();
  });

  it('counts requests by route pattern and status, payments, status changes, webhook outcomes, chain and pool', async () => {
    const created = await t.api('/api/v1/payments', { body: { amount: 40, currency: 'btc', email: 'm@example.com' } });
    expect(created.status).toBe(201);
    await t.api('/api/v1/payments/pay_missing');
    await t.api('/api/v1/payments', { body: { amount: -1, currency: 'btc', email: 'm@example.com' } });
    const d = created.json.data;
    const amount = /"pay_amount":([0-9.]+)/.exec(created.text)?.[1];
    await t.api('/api/v1/sandbox/transfers', { body: { currency: 'btc', address: d.blockchain.pay_address, amount } });
    await t.api('/api/v1/sandbox/blocks', { body: { network: 'btc', count: 2 } });
    await rcv.waitFor((all) => all.length >= 2);
    // The attempts are recorded just after the receiver answered.
    const r = await scrapeUntil(t, (m) => sample(m, 'webhook_pending_deliveries') === 0);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    const m = r.text;
    expect(sample(m, 'http_request_duration_seconds_count{method="POST",route="/api/v1/payments",status="201"}')).toBe(
      1,
    );
    expect(sample(m, 'http_request_duration_seconds_count{method="POST",route="/api/v1/payments",status="422"}')).toBe(
      1,
    );
    // An id never becomes a label: the pattern does.
    expect(
      sample(m, 'http_request_duration_seconds_count{method="GET",route="/api/v1/payments/:payment_id",status="404"}'),
    ).toBe(1);
    expect(m).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="POST",route="/api/v1/payments",status="201"}',
    );
    expect(sample(m, 'payments_created_total')).toBe(1);
    expect(sample(m, 'payment_status_changes_total{status="waiting"}')).toBe(1);
    expect(sample(m, 'payment_status_changes_total{status="confirming"}')).toBe(1);
    expect(sample(m, 'payment_status_changes_total{status="finished"}')).toBe(1);
    expect(sample(m, 'webhook_attempts_total{outcome="succeeded"}')).toBeGreaterThanOrEqual(2);
    expect(sample(m, 'webhook_pending_deliveries')).toBe(0);
    expect(sample(m, 'webhook_pending_oldest_age_seconds')).toBe(0);
    expect(sample(m, 'chain_head_lag_blocks{chain="sandbox:btc"}')).toBe(0);
    expect(sample(m, 'chain_rpc_errors{chain="sandbox:btc"}')).toBe(0);
    expect(sample(m, 'store_pool_connections{state="max"}')).toBeGreaterThanOrEqual(1);
    // Waiting queries exist on PostgreSQL while the pool opens connections (this scrape's own reads among them).
    expect(sample(m, 'store_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
    expect(sample(m, 'store_pool_connections{state="open"}')).toBeGreaterThanOrEqual(1);
  });

  it('reports the outbox backlog: a delivery to an endpoint that fails stays pending and ages', async () => {
    rcv.reply = () => ({ status: 500 });
    const sent = await t.api('/api/v1/webhook-deliveries/test', { method: 'POST' });
    expect(sent.status).toBe(202);
    await rcv.waitFor((all) => all.some((x) => x.json?.test === true));
    await new Promise((r) => setTimeout(r, 1100));
    const m = (await scrapeUntil(t, (text) => sample(text, 'webhook_attempts_total{outcome="retry"}') === 1)).text;
    expect(sample(m, 'webhook_pending_deliveries')).toBe(1);
    expect(sample(m, 'webhook_pending_oldest_age_seconds')).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'webhook_attempts_total{outcome="retry"}')).toBe(1);
  });
});

describe('GET /metrics access', () => {
  it('needs the Bearer token when METRICS_TOKEN is set', async () => {
    const t = await startTestService({ env: { METRICS_TOKEN: 'a-long-metrics-token-1234' } });
    try {
      expect((await t.api('/metrics', { key: null })).status).toBe(401);
      const wrong = await t.api('/metrics', {
        key: null,
        headers: { authorization: 'Bearer a-long-metrics-token-1235' },
      });
      expect(wrong.status).toBe(401);
      const right = await t.api('/metrics', {
        key: null,
        headers: { authorization: 'Bearer a-long-metrics-token-1234' },
      });
      expect(right.status).toBe(200);
      expect(right.text).toContain('# TYPE http_request_duration_seconds histogram');
    } finally {
      await t.close();
    }
  });

  it('is off (404) when the service listens beyond loopback without a token', async () => {
    const t = await startTestService({ env: { HOST: '0.0.0.0' } });
    try {
      const r = await t.api('/metrics', { key: null });
      expect(r.status).toBe(404);
      expect(r.text).not.toContain('http_request_duration_seconds');
    } finally {
      await t.close();
    }
  });
});
