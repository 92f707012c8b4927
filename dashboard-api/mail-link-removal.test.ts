import { describe, expect, it } from 'vitest';
import { LINK_REMOVED } from '../core/mail/account-mails.js';
import { until } from '../server/testing/until.js';
import { dashFetch } from './testing/client.js';
import { mailWorld } from './testing/mail-world.js';

/*
 * A set-password link is the one thing of value a mail carries: once the relay took the mail (or refused it for good)
 * the outbox's copy, kept for the mail log, no longer holds it (issue 29).
 */

const w = mailWorld({ MAIL_FROM: 'Payments <payments@shop.example>', MAIL_POLL_MS: '50' });

const tokenIn = (text: string) => /\/dashboard\/set-password#token=(pw_[\w-]+)/.exec(text)?.[1];

async function storedMail(kind: string, to: string, status: string) {
  return until(
    () =>
      w.t.service.deps.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('kind', '=', kind)
        .where('to_address', '=', to)
        .executeTakeFirst(),
    (m) => m?.status === status,
  );
}

describe('set-password links in stored mail', () => {
  it('are replaced by a marker once the invitation was sent; the link the person got still works', async () => {
    const inv = await w.owner.call(`${w.base}/users`, { body: { email: 'new@shop.example', role: 'viewer' } });
    expect(inv.status, inv.text).toBeLessThan(300);
    const got = await until(
      async () => w.relay.accepted().filter((m) => JSON.stringify(m.parsed.to).includes('new@shop.example')),
      (ms) => ms.length === 1,
    );
    const token = tokenIn(got[0]?.parsed.text ?? '') as string;
    expect(token).toBeTruthy();
    const row = await storedMail('invitation', 'new@shop.example', 'sent');
    expect(row?.text_body).not.toContain(token);
    expect(row?.html_body).not.toContain(token);
    expect(row?.text_body).toContain(`Set your password: ${LINK_REMOVED}`);
    // The owner's mail log shows the same: what was sent, without the link.
    const shown = (await w.owner.call(`${w.base}/mails/${row?.id}`)).json.data;
    expect(shown.text).toContain(LINK_REMOVED);
    expect(JSON.stringify(shown)).not.toContain(token);
    const set = await dashFetch(w.t.url, '/password', { body: { token, password: 'a long new password' } });
    expect(set.status).toBe(200);
  });

  it('are replaced when the relay refused the mail for good (550)', async () => {
    w.relay.reply = (m) =>
      JSON.stringify(m.to).includes('refused@shop.example') ? { code: 550, message: 'No such user' } : { code: 250 };
    await w.owner.call(`${w.base}/users`, { body: { email: 'refused@shop.example', role: 'viewer' } });
    const row = await storedMail('invitation', 'refused@shop.example', 'failed');
    expect(row?.last_code).toBe(550);
    expect(tokenIn(row?.text_body ?? '')).toBeUndefined();
    expect(tokenIn(row?.html_body ?? '')).toBeUndefined();
    expect(row?.text_body).toContain(LINK_REMOVED);
  });
});
