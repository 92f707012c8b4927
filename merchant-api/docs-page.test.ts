import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { operations } from './openapi/document.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /docs', () => {
  it('serves the reference as HTML without a key, one section per documented operation and the webhook', async () => {
    const r = await t.api('/docs', { key: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    for (const op of operations) {
      expect(r.text).toContain(`id="${op.operationId}"`);
      expect(r.text).toContain(`${op.method.toUpperCase()}</span> <code>${op.path}</code>`);
    }
    expect(r.text).toContain('id="webhook-payment.updated"');
    expect(r.text).toContain('X-Service-Signature');
    expect(r.text).toContain('Idempotency-Key');
  });

  it('holds the service CSP: no script of any kind, and the policy header on the page', async () => {
    const r = await t.api('/docs', { key: null });
    expect(r.text).not.toMatch(/<script|javascript:|\son[a-z]+=/i);
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('escapes text from the document (a description never becomes markup)', async () => {
    const r = await t.api('/docs', { key: null });
    // The webhook description names the signature's "." as text; the HTML carries only escaped quotes.
    expect(r.text).toContain('timestamp');
    expect(r.text).not.toContain('"."</');
  });
});
