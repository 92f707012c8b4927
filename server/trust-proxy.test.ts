import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { loadConfig } from './config.js';
import { startTestService, type TestService } from './testing/harness.js';

// Three requests per second per client address: the fourth from one address within a second is refused. The
// service's clock stands still (the limiter reads it), so a slow machine cannot refill a bucket between requests.
const LIMIT = 3;
const start = (env: Record<string, string>) =>
  startTestService({ env: { RATE_LIMIT_PER_SECOND: String(LIMIT), ...env }, clock: new ManualClock() });
let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Statuses of unauthenticated merchant API calls (counted per client address before the key is checked). */
async function statuses(forwardedFor: (i: number) => string, n = LIMIT + 2): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await t?.api('/api/v1/payments', { key: null, headers: { 'x-forwarded-for': forwardedFor(i) } });
    out.push(r?.status ?? 0);
  }
  return out;
}

describe('TRUST_PROXY off (the default)', () => {
  it('ignores X-Forwarded-For: a client that spoofs a new address per request is still one client', async () => {
    t = await start({});
    const got = await statuses((i) => `198.51.100.${i + 1}`);
    expect(got.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(got.slice(LIMIT)).toEqual([429, 429]);
  });
});

describe('TRUST_PROXY=1 (one reverse proxy in front)', () => {
  it('counts each address the proxy saw on its own', async () => {
    t = await start({ TRUST_PROXY: '1' });
    expect(await statuses((i) => `198.51.100.${i + 1}`)).toEqual(Array(LIMIT + 2).fill(401));
  });

  it('believes only the entry the proxy appended: addresses the client wrote before it are ignored', async () => {
    t = await start({ TRUST_PROXY: '1' });
    const got = await statuses((i) => `10.0.0.${i + 1}, 203.0.113.7`);
    expect(got.slice(LIMIT)).toEqual([429, 429]);
  });

  it('falls back to the socket peer when the header is missing or not an address', async () => {
    t = await start({ TRUST_PROXY: '1' });
    const got = await statuses((i) => (i % 2 === 0 ? 'not-an-address' : ''));
    expect(got.slice(LIMIT)).toEqual([429, 429]);
  });
});

describe('TRUST_PROXY=2 (a CDN, then a reverse proxy)', () => {
  it('takes the second address from the right', async () => {
    t = await start({ TRUST_PROXY: '2' });
    expect(await statuses((i) => `6.6.6.6, 198.51.100.${i + 1}, 10.1.1.1`)).toEqual(Array(LIMIT + 2).fill(401));
    const same = await statuses((i) => `6.6.6.${i + 1}, 203.0.113.8, 10.1.1.1`);
    expect(same.slice(LIMIT)).toEqual([429, 429]);
  });
});

describe('TRUST_PROXY configuration', () => {
  it('is off unless set, and refuses a value that is not a hop count', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });
});
