import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { ManualClock } from '../clock.js';
import { enqueueMail } from './outbox.js';
import { MAIL_RETRY_SCHEDULE_MS } from './schedule.js';
import { startRelay, type TestRelay } from './testing/relay.js';

const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
let t: TestService;
let relay: TestRelay;

beforeAll(async () => {
  relay = await startRelay();
  // Background work is not started: each step moves the clock, then runs the dispatcher to rest.
  t = await startTestService({
    clock,
    env: { SMTP_URL: relay.url, MAIL_FROM: 'Payments <payments@shop.example>', MAIL_TIMEOUT_MS: '2000' },
    overrides: { mailTls: { ca: relay.ca } },
  });
});
afterAll(async () => {
  await t?.close();
  await relay?.close();
});

const settle = () => (t.service.mail as NonNullable<TestService['service']['mail']>).settle();
const row = (id: string) =>
  t.service.deps.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const attempts = (id: string) =>
  t.service.deps.db.selectFrom('mail_attempts').selectAll().where('mail_id', '=', id).orderBy('attempt_no').execute();

let n = 0;
async function enqueue(): Promise<string> {
  const to = `customer${++n}@example.org`;
  const id = await t.service.deps.db.transaction().execute((trx) =>
    enqueueMail(
      trx,
      {
        merchantId: t.merchant.merchant_id,
        kind: 'test',
        to,
        subject: `Mail ${n}`,
        text: `Body ${n}`,
        html: `<p>Body ${n}</p>`,
      },
      clock.now(),
    ),
  );
  if (!id) throw new Error('not enqueued');
  return id;
}
const copiesOf = (id: string) => relay.received.filter((r) => r.parsed.headers.get('x-service-mail-id') === id);

describe('mail delivery through a real SMTP relay', () => {
  it('delivers over STARTTLS with AUTH, with the outbox Message-ID, and logs the relay answer', async () => {
    relay.reply = () => ({ code: 250, message: 'Queued as ABC123' });
    const id = await enqueue();
    await settle();
    const [got] = copiesOf(id);
    expect(got?.secure).toBe(true);
    expect(got?.user).toBe('relay-user');
    expect(got?.parsed.subject).toBe(`Mail ${n}`);
    expect(got?.parsed.text?.trim()).toBe(`Body ${n}`);
    expect(got?.parsed.html).toContain(`<p>Body ${n}</p>`);
    expect(got?.parsed.from?.value[0]).toEqual({ name: 'Payments', address: 'payments@shop.example' });
    const r = await row(id);
    expect(got?.parsed.messageId).toBe(`<${r.message_id}@shop.example>`);
    expect(r.status).toBe('sent');
    expect(r.last_code).toBe(250);
    expect(r.last_response).toContain('Queued as ABC123');
    expect((await attempts(id)).map((a) => a.code)).toEqual([250]);
  });

  it('retries a 451 on the schedule and delivers once', async () => {
    let first = true;
    relay.reply = () => {
      if (first) {
        first = false;
        return { code: 451, message: 'Greylisted, try later' };
      }
      return { code: 250 };
    };
    const id = await enqueue();
    await settle();
    let r = await row(id);
    expect(r.status).toBe('pending');
    expect(r.last_code).toBe(451);
    expect(r.next_attempt_at).toBeGreaterThanOrEqual(clock.now() + (MAIL_RETRY_SCHEDULE_MS[0] as number) * 0.8);
    expect(copiesOf(id).map((c) => c.code)).toEqual([451]);
    clock.set(r.next_attempt_at as number);
    await settle();
    r = await row(id);
    expect(r.status).toBe('sent');
    expect(copiesOf(id).map((c) => c.code)).toEqual([451, 250]);
    expect(new Set(copiesOf(id).map((c) => c.parsed.messageId)).size).toBe(1);
    expect((await attempts(id)).map((a) => [a.attempt_no, a.code])).toEqual([
      [1, 451],
      [2, 250],
    ]);
  });

  it('fails a 550 at once, shows why, and never tries again', async () => {
    relay.reply = () => ({ code: 550, message: 'No such user here' });
    const id = await enqueue();
    await settle();
    const r = await row(id);
    expect(r.status).toBe('failed');
    expect(r.last_code).toBe(550);
    expect(r.last_response).toContain('No such user here');
    clock.advance(3 * 24 * 3600_000);
    await settle();
    expect(copiesOf(id)).toHaveLength(1);
    expect(await attempts(id)).toHaveLength(1);
  });

  it('keeps a mail while the relay is down and delivers it once the relay is back', async () => {
    relay.reply = () => ({ code: 250 });
    await relay.stop();
    const id = await enqueue();
    for (let i = 0; i < 3; i++) {
      await settle();
      const r = await row(id);
      expect(r.status).toBe('pending');
      expect(r.last_code).toBeNull();
      expect(r.last_response).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
      clock.set(r.next_attempt_at as number);
    }
    await relay.start();
    await settle();
    expect((await row(id)).status).toBe('sent');
    expect(copiesOf(id).map((c) => c.code)).toEqual([250]);
    expect((await attempts(id)).map((a) => a.code)).toEqual([null, null, null, 250]);
  });

  it('fails a mail whose retries ran out, kept in the log', async () => {
    relay.reply = () => ({ code: 421, message: 'Too busy' });
    const id = await enqueue();
    for (let i = 0; i <= MAIL_RETRY_SCHEDULE_MS.length; i++) {
      await settle();
      const r = await row(id);
      if (r.status !== 'pending') break;
      clock.set(r.next_attempt_at as number);
    }
    expect((await row(id)).status).toBe('failed');
    expect(await attempts(id)).toHaveLength(MAIL_RETRY_SCHEDULE_MS.length + 1);
  });

  it('counts sent, retried and failed attempts in /metrics', async () => {
    const res = await fetch(`${t.url}/metrics`);
    const text = await res.text();
    const count = (o: string) =>
      Number(new RegExp(`^mail_attempts_total\\{outcome="${o}"\\} (\\d+)`, 'm').exec(text)?.[1]);
    expect(count('sent')).toBe(3);
    expect(count('retry')).toBe(1 + 3 + MAIL_RETRY_SCHEDULE_MS.length);
    expect(count('failed')).toBe(2);
    expect(text).toMatch(/^mail_pending 0$/m);
  });

  it('delivers each mail once when two processes share the outbox', async () => {
    relay.reply = () => ({ code: 250 });
    const { MailDispatcher } = await import('./dispatcher.js');
    const { MailTransport } = await import('./transport.js');
    const ids = [];
    for (let i = 0; i < 30; i++) ids.push(await enqueue());
    const make = () =>
      new MailDispatcher(
        { db: t.service.deps.db, dialect: t.service.deps.dialect, clock, logger: t.service.deps.logger },
        new MailTransport({
          url: relay.url,
          from: 'p@shop.example',
          timeoutMs: 2000,
          maxConnections: 3,
          tls: { ca: relay.ca },
        }),
        { concurrency: 4 },
      );
    const a = make();
    const b = make();
    await Promise.all([a.settle(), b.settle(), settle()]);
    for (const id of ids) expect(copiesOf(id)).toHaveLength(1);
  });
});
