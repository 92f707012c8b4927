import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleService, type ServiceProcess, spawnService } from '../../server/testing/service-process.js';
import { freshStoreUrl } from '../../server/testing/store.js';
import { until } from '../../server/testing/until.js';
import { migrate, openStore, type Store } from '../store/db.js';
import { enqueueMail } from './outbox.js';
import { startRelay, type TestRelay } from './testing/relay.js';

let bundle: { path: string; dispose(): void };
let storeUrl: { url: string; dispose: () => Promise<void> };
let relay: TestRelay;
let store: Store;
let svc: ServiceProcess | undefined;
let caFile = '';

beforeAll(async () => {
  bundle = await bundleService();
  storeUrl = await freshStoreUrl();
  relay = await startRelay();
  caFile = join(tmpdir(), `relay-ca-${process.pid}.pem`);
  writeFileSync(caFile, relay.ca);
  store = openStore(storeUrl.url);
  await migrate(store);
}, 120_000);
afterAll(async () => {
  if (svc?.child.exitCode === null) {
    svc.child.kill('SIGKILL');
    await svc.exited;
  }
  rmSync(caFile, { force: true });
  await store?.close();
  await relay?.close();
  bundle?.dispose();
  await storeUrl?.dispose();
});

/** The service as deployed, trusting the relay's self-signed certificate the way an operator would (a CA file). */
async function start(): Promise<ServiceProcess> {
  const s = await spawnService(bundle.path, {
    DATABASE_URL: storeUrl.url,
    SMTP_URL: relay.url,
    MAIL_FROM: 'Payments <payments@shop.example>',
    MAIL_TIMEOUT_MS: '1000',
    MAIL_POLL_MS: '100',
    MAIL_CONCURRENCY: '4',
    NODE_EXTRA_CA_CERTS: caFile,
  });
  await s.listening();
  return s;
}

it('a SIGKILL while sending loses no mail: each is delivered after the restart, at most twice, under one Message-ID', async () => {
  svc = await start();
  // The relay reads the sixth mail whole and never answers: the service is killed with that mail on the wire.
  relay.reply = (_m, n) => (n === 5 ? 'hang' : { code: 250 });
  const ids: string[] = [];
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 24; i++) {
      const id = await enqueueMail(
        trx,
        { merchantId: null, kind: 'test', to: `crash${i}@example.org`, subject: `Crash ${i}`, text: `Mail ${i}` },
        Date.now(),
      );
      ids.push(id as string);
    }
  });
  await until(
    async () => relay.received.length,
    (n) => n >= 6,
  );
  const child = svc;
  child.child.kill('SIGKILL');
  expect(await child.exited).toBe('SIGKILL');
  relay.reply = () => ({ code: 250 });

  svc = await start();
  const rows = await until(
    () => store.db.selectFrom('mail_outbox').select(['id', 'status', 'message_id']).execute(),
    (rs) => rs.length === ids.length && rs.every((r) => r.status === 'sent'),
    60_000,
  );
  for (const r of rows) {
    const copies = relay.received.filter((m) => m.parsed.headers.get('x-service-mail-id') === r.id);
    expect(copies.length, r.id).toBeGreaterThanOrEqual(1);
    expect(copies.length, r.id).toBeLessThanOrEqual(2);
    expect(copies.filter((c) => c.code === 250).length, r.id).toBeGreaterThanOrEqual(1);
    for (const c of copies) expect(c.parsed.messageId).toBe(`<${r.message_id}@shop.example>`);
  }
  // The one on the wire at the kill came again after its lease ran out.
  const hung = relay.received.find((m) => m.code === 0);
  const again = relay.received.filter(
    (m) => m.parsed.headers.get('x-service-mail-id') === hung?.parsed.headers.get('x-service-mail-id'),
  );
  expect(again.map((m) => m.code)).toEqual([0, 250]);
}, 120_000);
