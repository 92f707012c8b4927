/**
 * The provider's own decisions, without a Medusa server (test.sh runs this before test/run.ts): option checks at
 * start, and what each webhook becomes. Webhooks are signed here straight from the API's rule (sha256= hex
 * HMAC-SHA256 over timestamp "." raw body), independently of the verifier under test.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { CryptoPaymentProviderService } from '../src/service';

const signature = (secret: string, ts: number, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;

let passed = 0;
async function it(name: string, fn: () => void | Promise<void>): Promise<void> {
  await fn();
  passed++;
  process.stdout.write(`ok - ${name}\n`);
}

const options = { url: 'https://pay.example.com', secretKey: 'sk_test_abc', webhookSecret: 'whsec_right' };
const provider = new CryptoPaymentProviderService({}, options);

let n = 0;
function delivery(status: string, o: { sequence?: number; secret?: string; ageSeconds?: number; id?: string } = {}) {
  n++;
  const body = JSON.stringify({
    id: `evt_${n}`,
    event: 'payment.updated',
    created_at: new Date().toISOString(),
    source: 'payments',
    merchant: { user_id: null },
    payment: {
      payment_id: `pay_${status}`,
      payment_status: status,
      status_detail: 'none',
      sequence: o.sequence ?? 1,
      price_amount: 19.99,
      price_currency: 'EUR',
      order_id: `payses_${status}`,
    },
  });
  const ts = Math.floor(Date.now() / 1000) - (o.ageSeconds ?? 0);
  return {
    data: JSON.parse(body),
    rawData: Buffer.from(body),
    headers: {
      'x-service-delivery': o.id ?? `dlv_${n}`,
      'x-service-timestamp': String(ts),
      'x-service-signature': signature(o.secret ?? options.webhookSecret, ts, body),
    },
  };
}

async function main(): Promise<void> {
  await it('missing options stop start-up, each one named', () => {
    assert.throws(
      () => CryptoPaymentProviderService.validateOptions({}),
      /"url" is required.*"secretKey" is required.*"webhookSecret" is required/,
    );
  });
  await it('a dk_ key, a bad URL and a secret without whsec_ are refused without repeating them', () => {
    const bad = { url: 'ftp://pay', secretKey: 'dk_test_secretvalue', webhookSecret: 'nothex_secretvalue' };
    assert.throws(
      () => CryptoPaymentProviderService.validateOptions(bad),
      (e: Error) =>
        /absolute http\(s\) URL/.test(e.message) &&
        /dk_ keys are for browsers/.test(e.message) &&
        /must start with whsec_/.test(e.message) &&
        !e.message.includes('secretvalue'),
    );
  });
  await it('good options pass', () => CryptoPaymentProviderService.validateOptions(options));

  await it('finished is captured for its Medusa session, at the charged price', async () => {
    const r = await provider.getWebhookActionAndData(delivery('finished'));
    assert.equal(r.action, 'captured');
    assert.equal(r.data?.session_id, 'payses_finished');
    assert.equal(String(r.data?.amount), '19.99');
  });
  await it('partially_paid is requires_more and expired is failed: never paid', async () => {
    assert.equal((await provider.getWebhookActionAndData(delivery('partially_paid'))).action, 'requires_more');
    assert.equal((await provider.getWebhookActionAndData(delivery('expired'))).action, 'failed');
  });
  await it('a wrong signature, a stale timestamp, a replay and an older sequence change nothing', async () => {
    const wrong = delivery('confirming', { secret: 'whsec_wrong' });
    assert.equal((await provider.getWebhookActionAndData(wrong)).action, 'not_supported');
    const old = delivery('confirming', { ageSeconds: 301 });
    assert.equal((await provider.getWebhookActionAndData(old)).action, 'not_supported');
    const first = delivery('waiting', { sequence: 5, id: 'dlv_once' });
    assert.equal((await provider.getWebhookActionAndData(first)).action, 'pending');
    const again = delivery('waiting', { sequence: 6, id: 'dlv_once' });
    assert.equal((await provider.getWebhookActionAndData(again)).action, 'not_supported');
    const older = delivery('waiting', { sequence: 4 });
    assert.equal((await provider.getWebhookActionAndData(older)).action, 'not_supported');
  });
  process.stdout.write(`medusa unit: ${passed} passed, 0 failed\n`);
}

main().catch((e) => {
  process.stdout.write(`FAIL - ${e instanceof Error ? e.stack : e}\nmedusa unit: ${passed} passed, 1 failed\n`);
  process.exit(1);
});
