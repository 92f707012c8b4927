import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { createMerchant } from '../merchants/merchants.js';
import { isPublicAddress, type Resolver, systemResolver, webhookUrlProblem } from './address-guard.js';
import { startReceiver, type TestReceiver } from './testing/receiver.js';

let t: TestService;
let rcv: TestReceiver;
// DNS is outside the service: this resolver stands for a hostile zone whose names point at our loopback.
const resolver: Resolver = (host) =>
  host === 'hooks.shop.test'
    ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
    : host === 'v6.shop.test'
      ? Promise.resolve([{ address: '64:ff9b:1::7f00:1', family: 6 }])
      : systemResolver(host);

/** IPv6 spellings of loopback, private and other non-global addresses, as the attack run sent them and more. */
const nonGlobalV6 = [
  '::127.0.0.1', // IPv4-compatible: a URL parser rewrites it to ::7f00:1
  '::7f00:1',
  '::ffff:0:7f00:1', // RFC 6145 IPv4-translated
  '64:ff9b:1::7f00:1', // RFC 8215 local-use NAT64
  '64:ff9b::a00:1', // NAT64 of a private address
  '::ffff:a9fe:a9fe', // mapped metadata address in hex
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  '2001:db8::1', // documentation
  '3fff::1', // documentation (RFC 9637)
  '100::1', // discard-only
  '5f00::1', // segment routing
  'fec0::1', // deprecated site-local
  'ff02::1', // multicast
];

beforeAll(async () => {
  rcv = await startReceiver('x');
  t = await startTestService({ overrides: { webhookResolver: resolver } });
});
afterAll(async () => {
  await t?.close();
  await rcv?.close();
});

async function attemptTo(url: string, mode: 'test' | 'live') {
  const m = await createMerchant(t.service.deps.db, t.service.deps.clock, { name: 'Shop', mode, webhookUrl: url });
  rcv.secret = m.webhook_secret;
  const r = await t.api('/api/v1/webhook-deliveries/test', { method: 'POST', key: m.secret_key });
  expect(r.status, r.text).toBe(202);
  await t.service.webhooks.settle();
  const d = await t.api(`/api/v1/webhook-deliveries/${r.json.data.delivery_id}`, { key: m.secret_key });
  return d.json.data;
}

describe('address guard', () => {
  it('tells public addresses from loopback, private, link-local, metadata and mapped forms', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:7f00:1::1',
      '192.0.2.1',
      '198.18.0.1',
      '240.0.0.1',
      ...nonGlobalV6,
      'not-an-ip',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808', // DNS64's answer for an IPv4-only host, on an IPv6-only network
    ]) {
      expect(isPublicAddress(a), a).toBe(true);
    }
  });
});

describe('live-mode webhook targets', () => {
  it('refuses plain http', async () => {
    const d = await attemptTo(rcv.url, 'live');
    expect(d.attempts[0].error).toMatch(/^refused: live-mode webhook URLs must use https/);
  });

  it.each([
    ['loopback', () => `https://127.0.0.1:${rcv.port}/hook`],
    ['a private address', () => 'https://10.0.0.1/hook'],
    ['the cloud metadata address', () => 'https://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => `https://[::1]:${rcv.port}/hook`],
    ['IPv4-compatible IPv6 loopback', () => `https://[::127.0.0.1]:${rcv.port}/hook`],
    ['IPv4-translated IPv6 loopback', () => `https://[::ffff:0:7f00:1]:${rcv.port}/hook`],
    ['local-use NAT64 of loopback', () => `https://[64:ff9b:1::7f00:1]:${rcv.port}/hook`],
  ])('refuses %s before connecting', async (_name, url) => {
    const d = await attemptTo(url(), 'live');
    expect(d.status).toBe('pending'); // retried later on the schedule: the address may become valid
    expect(d.attempts[0]).toMatchObject({ response_code: null });
    expect(d.attempts[0].error).toMatch(/^refused: webhook target .* is not a public address/);
  });

  it('refuses, at connect time, host names that resolve to loopback (system DNS and a hostile zone)', async () => {
    for (const url of [`https://localhost:${rcv.port}/hook`, `https://hooks.shop.test:${rcv.port}/hook`]) {
      const d = await attemptTo(url, 'live');
      expect(d.attempts[0].error, url).toMatch(
        /^refused: webhook host .* resolves to (127\.0\.0\.1|::1), which is not a public address/,
      );
    }
    expect(rcv.received).toHaveLength(0);
  });

  it('refuses, at connect time, a host name whose AAAA answer embeds loopback', async () => {
    const d = await attemptTo(`https://v6.shop.test:${rcv.port}/hook`, 'live');
    expect(d.attempts[0].error).toMatch(/^refused: webhook host v6\.shop\.test resolves to 64:ff9b:1::7f00:1/);
  });

  it('test mode may use http and loopback, through the same resolver', async () => {
    const d = await attemptTo(`http://hooks.shop.test:${rcv.port}/hook`, 'test');
    expect(d).toMatchObject({ status: 'succeeded', last_response_code: 200 });
    expect(rcv.received).toHaveLength(1);
    expect(rcv.received[0]?.verified).toBe(true);
  });
});

describe('save-time check', () => {
  it('names the problem of a live URL before any event, and accepts what test mode allows', async () => {
    expect(await webhookUrlProblem('http://shop.example/hook', 'live', resolver)).toMatch(/must use https/);
    expect(await webhookUrlProblem('https://169.254.169.254/', 'live', resolver)).toMatch(/not a public address/);
    expect(await webhookUrlProblem('https://hooks.shop.test/hook', 'live', resolver)).toMatch(
      /resolves to 127\.0\.0\.1/,
    );
    expect(await webhookUrlProblem('https://8.8.8.8/hook', 'live', resolver)).toBeNull();
    expect(await webhookUrlProblem('https://[2606:4700:4700::1111]/hook', 'live', resolver)).toBeNull();
    for (const a of nonGlobalV6) {
      expect(await webhookUrlProblem(`https://[${a}]/hook`, 'live', resolver), a).toMatch(/not a public address/);
    }
    expect(await webhookUrlProblem('https://v6.shop.test/hook', 'live', resolver)).toMatch(/resolves to 64:ff9b:1::/);
    expect(await webhookUrlProblem('ftp://x/', 'test', resolver)).toMatch(/not http/);
    expect(await webhookUrlProblem('http://127.0.0.1:9/hook', 'test', resolver)).toBeNull();
  });
});
