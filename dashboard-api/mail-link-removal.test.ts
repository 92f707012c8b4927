import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_REMOVED } from '../core/mail/account-mails.js';
import { startRelay, type TestRelay } from '../core/mail/testing/relay.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { until } from '../server/testing/until.js';
import { type DashClient, dashFetch, userOf } from './testing/client.js';

/*
 * A set-password link is the one thing of value a mail carries: once the relay took the mail (or refused it for good)
 * the outbox's copy, kept for the mail log, no longer holds it (issue 29).
 */

let t: TestService;
let relay: TestRelay;
let owner: DashClient;
let base: string;

beforeAll(async () => {
  relay = await startRelay();
  t = await startTestService({
    start: true,
    env: { SMTP_URL: relay.url, MAIL_FROM: 'Payments <payments@shop.example>', MAIL_POLL_MS: '50' },
    overrides: { mailTls: { ca: relay.ca } },
  });
  owner = await userOf(t, t.merchant.merchant_id, 'owner@shop.example');
  base = `/merchants/${t.merchant.merchant_id}`;
});
afterAll(async () => {
  await t?.close();
  await relay?.close();
});

const tokenIn = (text: string) => /\/dashboard\/set-password#token=(pw_[\w-]+)/.exec(text)?.[1];

async function storedMail(kind: string, to: string, status: string) {
  return until(
    () =>
      t.service.deps.db
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
    const inv = await owner.call(`${base}/users`, { body: { email: 'new@shop.example', role: 'viewer' } });
    expect(inv.status, inv.text).toBeLessThan(300);
    const got = await until(
      async () => relay.accepted().filter((m) => JSON.stringify(m.parsed.to).includes('new@shop.example')),
      (ms) => ms.length === 1,
    );
    const token = tokenIn(got[0]?.parsed.text ?? '') as string;
    expect(token).toBeTruthy();
    const row = await storedMail('invitation', 'new@shop.example', 'sent');
    expect(row?.text_body).not.toContain(token);
    expect(row?.html_body).not.toContain(token);
    expect(row?.text_body).toContain(`Set your password: ${LINK_REMOVED}`);
    // The owner's mail log shows the same: what was sent, without the link.
    const shown = (await owner.call(`${base}/mails/${row?.id}`)).json.data;
    expect(shown.text).toContain(LINK_REMOVED);
    expect(JSON.stringify(shown)).not.toContain(token);
    const set = await dashFetch(t.url, '/password', { body: { token, password: 'a long new password' } });
    expect(set.status).toBe(200);
  });

  it('are replaced when the relay refused the mail for good (550)', async () => {
    relay.reply = (m) =>
      JSON.stringify(m.to).includes('refused@shop.example') ? { code: 550, message: 'No such user' } : { code: 250 };
    await owner.call(`${base}/users`, { body: { email: 'refused@shop.example', role: 'viewer' } });
    const row = await storedMail('invitation', 'refused@shop.example', 'failed');
    expect(row?.last_code).toBe(550);
    expect(tokenIn(row?.text_body ?? '')).toBeUndefined();
    expect(tokenIn(row?.html_body ?? '')).toBeUndefined();
    expect(row?.text_body).toContain(LINK_REMOVED);
  });
});
