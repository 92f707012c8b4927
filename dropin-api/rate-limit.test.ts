import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../server/testing/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ env: { RATE_LIMIT_PER_SECOND: '3' } });
});
afterAll(async () => {
  await t?.close();
});

const body = { amount: 10, customer: { email: 'rl@example.com' } };

describe('drop-in rate limits', () => {
  it('answers 429 with Retry-After once a key or a client address is over its limit', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 8; i++) {
      const r = await t.api('/api/dropin/v1/sessions', {
        key: null,
        headers: { authorization: `Bearer ${t.merchant.public_key}` },
        body,
      });
      statuses.push(r.status);
      if (r.status === 429) {
        retryAfter = r.headers.get('retry-after');
        expect(r.json).toMatchObject({ success: false, code: 'RATE_LIMITED' });
      }
    }
    expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // Guessing session tokens from the same address is throttled too.
    const guess = await t.api('/api/dropin/v1/sessions/cs_guess', { key: null });
    expect(guess.status).toBe(429);
  });
});
