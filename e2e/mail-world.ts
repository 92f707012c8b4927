import { startRelay, type TestRelay } from '../core/mail/testing/relay.js';
import { addUser } from '../core/users/accounts.js';
import { startTestService, type TestService } from '../server/testing/harness.js';
import { test } from './fixtures.js';

export interface MailWorld {
  t: TestService;
  /** A real SMTP relay (STARTTLS with its own CA) the service sends through. */
  relay: TestRelay;
}

/**
 * The dashboard mail specs' world: a running service that mails through a real relay, with one member who signs in
 * with `user`'s password, started before the file's tests and closed after them (the hooks are registered here).
 * `env` is added to SMTP_URL (MAIL_FROM, MAIL_POLL_MS, ...). Its fields are set once the tests run.
 */
export function mailWorld(
  env: Record<string, string>,
  user: { email: string; role: 'owner' | 'viewer'; password: string },
): MailWorld {
  const w = {} as MailWorld;
  test.beforeAll(async () => {
    w.relay = await startRelay();
    w.t = await startTestService({
      start: true,
      env: { SMTP_URL: w.relay.url, ...env },
      overrides: { mailTls: { ca: w.relay.ca } },
    });
    await addUser(w.t.service.deps, { merchantId: w.t.merchant.merchant_id, ...user });
  });
  test.afterAll(async () => {
    await w.t?.close();
    await w.relay?.close();
  });
  return w;
}
