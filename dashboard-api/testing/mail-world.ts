import { afterAll, beforeAll } from 'vitest';
import { startRelay, type TestRelay } from '../../core/mail/testing/relay.js';
import { startTestService, type TestService } from '../../server/testing/harness.js';
import { type DashClient, userOf } from './client.js';

export interface MailWorld {
  t: TestService;
  /** A real SMTP relay (TLS with its own CA) the service sends through. */
  relay: TestRelay;
  owner: DashClient;
  /** The merchant's dashboard API path. */
  base: string;
}

/**
 * The dashboard mail tests' world: a running service that mails through a real relay, with an owner of its
 * merchant, started before the file's tests and closed after them (the hooks are registered here). `env` is added
 * to SMTP_URL (MAIL_FROM, MAIL_POLL_MS, ...). Its fields are set once the tests run.
 */
export function mailWorld(env: Record<string, string>): MailWorld {
  const w = {} as MailWorld;
  beforeAll(async () => {
    w.relay = await startRelay();
    w.t = await startTestService({
      start: true,
      env: { SMTP_URL: w.relay.url, ...env },
      overrides: { mailTls: { ca: w.relay.ca } },
    });
    w.owner = await userOf(w.t, w.t.merchant.merchant_id, 'owner@shop.example');
    w.base = `/merchants/${w.t.merchant.merchant_id}`;
  });
  afterAll(async () => {
    await w.t?.close();
    await w.relay?.close();
  });
  return w;
}
