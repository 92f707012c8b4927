import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { index } from './testing/package-entry.js';
import { verifyWebhook, WebhookVerificationError } from './verify.js';

const secret = 'whsec_python_made_this';
const body =
  '{"id":"6c1f7a52-8f7e-4a36-9a51-3f3c8d2b1a00","event":"payment.updated","created_at":"2026-06-01T12:00:00.000Z","source":"crypto-payments-service","merchant":{"user_id":"mer_1"},"payment":{"payment_id":"pay_1","invoice_id":"inv_1","purchase_id":"pur_1","payment_status":"finished","status_detail":"none","sequence":3,"price_amount":100,"price_currency":"USD","pay_amount":0.00123457,"pay_currency":"BTC","actually_paid":0.00123457,"pay_address":"bc1q","extra_id":null,"network":"btc","order_id":"o-1","confirmed_at":"2026-06-01T12:00:00.000Z","updated_at":"2026-06-01T12:00:00.000Z","customer":{"name":"Bob","email":"bob@example.com"}}}';
const ts = 1_780_315_200; // 2026-06-01T12:00:00Z
const now = ts * 1000;

/** Signs with Python's hmac module: an implementation that shares no code with ours. */
function pythonSign(key: string, timestamp: number, raw: string): string {
  const py =
    'import hmac, hashlib, sys\nbody = sys.stdin.buffer.read()\nprint("sha256=" + hmac.new(sys.argv[1].encode(), sys.argv[2].encode() + b"." + body, hashlib.sha256).hexdigest())';
  return execFileSync('python3', ['-c', py, key, String(timestamp)], { input: Buffer.from(raw, 'utf8') })
    .toString()
    .trim();
}

const headers = (sig: string, t = ts) => ({
  'X-Service-Event': 'payment.updated',
  'X-Service-Delivery': 'dlv_1',
  'X-Service-Timestamp': String(t),
  'X-Service-Signature': sig,
});

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof WebhookVerificationError) return e.code;
    throw e;
  }
  return 'accepted';
}

describe('verifyWebhook', () => {
  const sig = pythonSign(secret, ts, body);

  it('accepts a signature made by Python hmac and returns the typed event', () => {
    const ev = verifyWebhook(body, headers(sig), secret, { now });
    expect(ev.id).toBe('6c1f7a52-8f7e-4a36-9a51-3f3c8d2b1a00');
    expect(ev.payment.payment_status).toBe('finished');
    expect(ev.payment.sequence).toBe(3);
    // Fetch-style Headers and raw bytes work too.
    expect(
      verifyWebhook(new TextEncoder().encode(body), new Headers(headers(sig)), secret, { now }).payment.payment_id,
    ).toBe('pay_1');
  });

  it('is exported from the package entry', () => {
    expect(index.verifyWebhook).toBe(verifyWebhook);
  });

  it('rejects a tampered body, a wrong secret, a wrong timestamp and a malformed header', () => {
    expect(codeOf(() => verifyWebhook(body.replace('"finished"', '"finishez"'), headers(sig), secret, { now }))).toBe(
      'bad_signature',
    );
    expect(codeOf(() => verifyWebhook(body, headers(sig), 'whsec_other', { now }))).toBe('bad_signature');
    expect(codeOf(() => verifyWebhook(body, headers(sig, ts + 1), secret, { now }))).toBe('bad_signature');
    expect(codeOf(() => verifyWebhook(body, headers(sig.toUpperCase()), secret, { now }))).toBe('bad_signature');
    expect(codeOf(() => verifyWebhook(body, headers('sha256=00'), secret, { now }))).toBe('bad_signature');
    expect(codeOf(() => verifyWebhook(body, { 'x-service-timestamp': String(ts) }, secret, { now }))).toBe(
      'missing_header',
    );
  });

  it('rejects stale and future timestamps outside the tolerance (default 5 minutes)', () => {
    expect(codeOf(() => verifyWebhook(body, headers(sig), secret, { now: now + 300_000 }))).toBe('accepted');
    expect(codeOf(() => verifyWebhook(body, headers(sig), secret, { now: now + 301_000 }))).toBe('stale_timestamp');
    expect(codeOf(() => verifyWebhook(body, headers(sig), secret, { now: now - 301_000 }))).toBe('stale_timestamp');
    expect(
      codeOf(() => verifyWebhook(body, headers(sig), secret, { now: now + 3_600_000, toleranceSeconds: 7200 })),
    ).toBe('accepted');
    // Without `now`, the real clock applies: a 2026 timestamp signed long ago is stale today or tomorrow alike.
    const old = pythonSign(secret, 1_000_000_000, body);
    expect(codeOf(() => verifyWebhook(body, headers(old, 1_000_000_000), secret))).toBe('stale_timestamp');
  });

  it('rejects a validly signed body that is not a payment.updated event', () => {
    const other = '{"event":"something.else"}';
    expect(codeOf(() => verifyWebhook(other, headers(pythonSign(secret, ts, other)), secret, { now }))).toBe(
      'bad_payload',
    );
  });
});
