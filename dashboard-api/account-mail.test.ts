import { describe, expect, it } from 'vitest';
import { hashToken } from '../core/users/sessions.js';
import { startTestService } from '../server/testing/harness.js';
import { until } from '../server/testing/until.js';
import { dashFetch, signIn, TEST_PASSWORD, userOf } from './testing/client.js';
import { mailWorld } from './testing/mail-world.js';

/* Mails to dashboard users through a real SMTP relay: password resets, invitations, security notices (issue 29). */

const w = mailWorld({
  MAIL_FROM: 'Shop payments <payments@shop.example>',
  MAIL_POLL_MS: '100',
  TRUST_PROXY: '1',
});

const mailsTo = (to: string) =>
  w.relay.accepted().filter((m) => m.parsed.to && JSON.stringify(m.parsed.to).includes(to));
const waitMail = (to: string, n = 1) =>
  until(
    async () => mailsTo(to),
    (ms) => ms.length >= n,
  );
const linkIn = (text: string) => /(http:\/\/\S+\/dashboard\/set-password#token=(pw_[\w-]+))/.exec(text);
const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('forgot password', () => {
  it('mails a single-use 30-minute link, stored hashed, that sets a new password; then a notice', async () => {
    await userOf(w.t, w.t.merchant.merchant_id, 'forgot@shop.example', 'viewer');
    const r = await dashFetch(w.t.url, '/password-reset', {
      body: { email: 'Forgot@Shop.example' },
      headers: from('10.1.0.1'),
    });
    expect(r.status).toBe(202);
    const [mail] = await waitMail('forgot@shop.example');
    expect(mail?.parsed.subject).toBe('Reset your dashboard password');
    const m = linkIn(mail?.parsed.text ?? '');
    expect(m?.[1]?.startsWith(`${w.t.url}/dashboard/set-password#token=`)).toBe(true);
    expect(mail?.parsed.html).toContain(`href="${m?.[1]}"`);
    const token = m?.[2] as string;
    const row = await w.t.service.deps.db
      .selectFrom('dashboard_password_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(row.expires_at - row.created_at).toBe(30 * 60 * 1000);
    expect(
      JSON.stringify(await w.t.service.deps.db.selectFrom('dashboard_password_tokens').selectAll().execute()),
    ).not.toContain(token);
    // The old password still works until the link is used: asking for a reset locks nobody out.
    await signIn(w.t.url, 'forgot@shop.example', TEST_PASSWORD);
    expect((await dashFetch(w.t.url, '/password', { body: { token, password: 'a brand new password' } })).status).toBe(
      200,
    );
    expect((await dashFetch(w.t.url, '/password', { body: { token, password: 'another new password' } })).status).toBe(
      404,
    );
    await signIn(w.t.url, 'forgot@shop.example', 'a brand new password');
    const notices = await until(
      async () =>
        mailsTo('forgot@shop.example').filter((x) => x.parsed.subject === 'Your dashboard password was changed'),
      (ns) => ns.length === 1,
    );
    expect(notices[0]?.parsed.text).not.toContain('a brand new password');
  });

  it('answers an unknown address exactly as a known one, and mails nobody', async () => {
    await userOf(w.t, w.t.merchant.merchant_id, 'known@shop.example', 'viewer');
    const unknown = await dashFetch(w.t.url, '/password-reset', {
      body: { email: 'nobody@shop.example' },
      headers: from('10.2.0.1'),
    });
    const known = await dashFetch(w.t.url, '/password-reset', {
      body: { email: 'known@shop.example' },
      headers: from('10.2.0.1'),
    });
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    // Requests are worked through in order: once the known one's mail exists, the unknown one was handled.
    await waitMail('known@shop.example');
    const written = await w.t.service.deps.db.selectFrom('mail_outbox').select('to_address').execute();
    expect(written.map((w) => w.to_address)).not.toContain('nobody@shop.example');
  });

  it('limits reset mails per address (3 an hour) and requests per client address (5 in 15 minutes)', async () => {
    await userOf(w.t, w.t.merchant.merchant_id, 'flood@shop.example', 'viewer');
    for (let i = 0; i < 5; i++) {
      const r = await dashFetch(w.t.url, '/password-reset', {
        body: { email: 'flood@shop.example' },
        headers: from(`10.3.0.${i}`),
      });
      expect(r.status).toBe(202);
    }
    await waitMail('flood@shop.example', 3);
    // The two over the limit were answered alike and wrote nothing (the known answer below comes after them).
    await userOf(w.t, w.t.merchant.merchant_id, 'later@shop.example', 'viewer');
    await dashFetch(w.t.url, '/password-reset', { body: { email: 'later@shop.example' }, headers: from('10.3.1.1') });
    await waitMail('later@shop.example');
    const n = await w.t.service.deps.db
      .selectFrom('mail_outbox')
      .select((e) => e.fn.countAll().as('n'))
      .where('to_address', '=', 'flood@shop.example')
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(3);
    for (let i = 0; i < 5; i++)
      expect(
        (
          await dashFetch(w.t.url, '/password-reset', {
            body: { email: `x${i}@shop.example` },
            headers: from('10.4.0.1'),
          })
        ).status,
      ).toBe(202);
    const refused = await dashFetch(w.t.url, '/password-reset', {
      body: { email: 'x9@shop.example' },
      headers: from('10.4.0.1'),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('invitations and notices', () => {
  it('mails an invitation with the same one-time link the owner sees', async () => {
    const r = await w.owner.call(`${w.base}/users`, { body: { email: 'invitee@shop.example', role: 'viewer' } });
    expect(r.status).toBe(201);
    const [mail] = await waitMail('invitee@shop.example');
    expect(mail?.parsed.subject).toBe('You are invited to the Test shop dashboard');
    expect(linkIn(mail?.parsed.text ?? '')?.[1]).toBe(r.json.data.invite_url);
    expect(
      (
        await dashFetch(w.t.url, '/password', {
          body: { token: linkIn(mail?.parsed.text ?? '')?.[2], password: 'invitee password!' },
        })
      ).status,
    ).toBe(200);
    // A first password is no news: no "changed" notice.
    await signIn(w.t.url, 'invitee@shop.example', 'invitee password!');
    const key = await w.owner.call(`${w.base}/keys`, { body: { kind: 'secret', label: 'server' } });
    await waitMail('owner@shop.example');
    expect(mailsTo('invitee@shop.example').map((m) => m.parsed.subject)).toEqual([
      'You are invited to the Test shop dashboard',
    ]);
    const notice = mailsTo('owner@shop.example').find((m) => m.parsed.subject?.startsWith('A new API key'));
    expect(notice?.parsed.text).toContain('secret API key (“server”)');
    expect(notice?.raw).not.toContain(key.json.data.key);
  });

  it('tells a user of a changed password and of a sign-in from an address never seen before, not the first', async () => {
    await userOf(w.t, w.t.merchant.merchant_id, 'roam@shop.example', 'viewer');
    const signInFrom = (ip: string, password = TEST_PASSWORD) =>
      dashFetch(w.t.url, '/session', { body: { email: 'roam@shop.example', password }, headers: from(ip) });
    expect((await signInFrom('192.0.2.10')).status).toBe(200);
    expect((await signInFrom('192.0.2.10')).status).toBe(200);
    expect((await signInFrom('198.51.100.7')).status).toBe(200);
    // The first sign-in (userOf's, from 127.0.0.1) is no news; each address after it is, once.
    const notices = await until(
      async () =>
        mailsTo('roam@shop.example').filter((m) => m.parsed.subject === 'New sign-in to your dashboard account'),
      (ms) => ms.length >= 2,
    );
    expect(notices.map((m) => /not seen before: (\S+)\./.exec(m.parsed.text ?? '')?.[1]).sort()).toEqual([
      '192.0.2.10',
      '198.51.100.7',
    ]);
    const c = await signIn(w.t.url, 'roam@shop.example');
    expect(
      (
        await c.call('/account/password', {
          body: { current_password: TEST_PASSWORD, new_password: 'roaming new password' },
        })
      ).status,
    ).toBe(200);
    const changed = await until(
      async () =>
        mailsTo('roam@shop.example').filter((m) => m.parsed.subject === 'Your dashboard password was changed'),
      (ms) => ms.length === 1,
    );
    expect(changed[0]?.raw).not.toContain('roaming new password');
  });
});

describe('mail settings and the mail log (owners)', () => {
  it('saves sender name and reply-to (audited), sends a test e-mail in them, and logs the relay answer', async () => {
    expect((await w.owner.call(`${w.base}/mail-settings`)).json.data).toMatchObject({ relay: true, receipts: true });
    const bad = await w.owner.call(`${w.base}/mail-settings`, {
      method: 'PUT',
      body: {
        sender_name: 'Evil\r\nBcc: x@y.z',
        reply_to: 'nope',
        receipts: true,
        underpaid: true,
        expired_partly_paid: true,
      },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['reply_to', 'sender_name']);
    const saved = await w.owner.call(`${w.base}/mail-settings`, {
      method: 'PUT',
      body: {
        sender_name: 'Ann’s Shop',
        reply_to: 'help@shop.example',
        receipts: true,
        underpaid: false,
        expired_partly_paid: true,
      },
    });
    expect(saved.status).toBe(200);
    const audit = (await w.owner.call(`${w.base}/audit?action=mail.settings`)).json.data.entries;
    expect(audit[0]).toMatchObject({
      actor: 'owner@shop.example',
      details: { sender_name: 'Ann’s Shop', underpaid: false },
    });
    w.relay.reply = (m) =>
      m.subject?.startsWith('Test e-mail') ? { code: 250, message: 'Ok: queued as TEST42' } : { code: 250 };
    const sent = await w.owner.call(`${w.base}/mail-settings/test`, { body: {} });
    expect(sent.status).toBe(202);
    const got = await until(
      async () => mailsTo('owner@shop.example').filter((m) => m.parsed.subject === 'Test e-mail from Test shop'),
      (ms) => ms.length === 1,
    );
    expect(got[0]?.parsed.from?.value[0]).toEqual({ name: 'Ann’s Shop', address: 'payments@shop.example' });
    expect(got[0]?.parsed.replyTo?.value[0]?.address).toBe('help@shop.example');
    const log = await until(
      async () => (await w.owner.call(`${w.base}/mails`)).json.data.mails as Array<Record<string, unknown>>,
      (ms) => ms.some((m) => m.id === sent.json.data.mail_id && m.status === 'sent'),
    );
    const entry = log.find((m) => m.id === sent.json.data.mail_id);
    expect(entry).toMatchObject({ kind: 'test', to: 'owner@shop.example', last_code: 250 });
    expect(entry?.attempt_log).toEqual([
      expect.objectContaining({ attempt_no: 1, code: 250, response: expect.stringContaining('TEST42') }),
    ]);
    const viewer = await userOf(w.t, w.t.merchant.merchant_id, 'peek@shop.example', 'viewer');
    expect((await viewer.call(`${w.base}/mails`)).status).toBe(403);
  });

  it('without SMTP, mail waits in the outbox and the owner reads the invitation link there', async () => {
    const bare = await startTestService();
    try {
      const o = await userOf(bare, bare.merchant.merchant_id, 'solo@shop.example');
      const b = `/merchants/${bare.merchant.merchant_id}`;
      const inv = await o.call(`${b}/users`, { body: { email: 'handover@shop.example', role: 'viewer' } });
      const list = (await o.call(`${b}/mails`)).json.data;
      expect(list.relay).toBe(false);
      expect(list.mails[0]).toMatchObject({
        kind: 'invitation',
        to: 'handover@shop.example',
        status: 'pending',
        attempts: 0,
      });
      const one = (await o.call(`${b}/mails/${list.mails[0].id}`)).json.data;
      expect(one.text).toContain(inv.json.data.invite_url);
    } finally {
      await bare.close();
    }
  });
});
