import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnService } from '../../server/testing/service-process.js';
import { freshStoreUrl } from '../../server/testing/store.js';
import { systemClock } from '../clock.js';
import { createMerchant, getMerchant } from '../merchants/merchants.js';
import { migrate, openStore } from '../store/db.js';
import { startReceiver } from '../webhooks/testing/receiver.js';
import { listStoredSecrets } from './stored-secrets.js';
import { cli, isPostgres, key1, main, run, setUpSecretsAtRest } from './testing/secrets-at-rest.js';
import { unlockStore } from './unlock.js';

/*
 * Secrets at rest where no key was given (set-up in testing/secrets-at-rest.ts): the default key file beside the SQLite
 * store, and a store from before encryption at rest sealed at its first start with a key.
 */

setUpSecretsAtRest();

describe('with no key configured', () => {
  it('uses a 0600 key file beside the SQLite store, which rotate-key replaces', async (ctx) => {
    // The PostgreSQL default (data/secrets.key under the working directory) is shared by every test store there.
    if (isPostgres()) ctx.skip();
    const own = await freshStoreUrl();
    const file = `${own.url.slice('sqlite:'.length)}.key`;
    const cliOn = (args: string[]) =>
      run(process.execPath, [cli.path, ...args], {
        env: { ...process.env, DATABASE_URL: own.url, SECRETS_KEY: '', SECRETS_KEY_FILE: '' },
      });
    try {
      const created = await cliOn(['merchant', 'create', '--name', 'Plain', '--mode', 'test', '--json']);
      expect(created.stderr).toContain(`Created the secrets key file ${file} (mode 0600)`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const m = JSON.parse(created.stdout);
      const first = readFileSync(file, 'utf8');

      const rotated = await cliOn(['secrets', 'rotate-key']);
      expect(rotated.stdout).toContain(`${file} now holds the new key`);
      expect(readFileSync(file, 'utf8')).not.toBe(first);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(existsSync(`${file}.next`)).toBe(false);

      const store = openStore(own.url, { poolSize: 1 });
      try {
        const u = await unlockStore(store, {}, own.url);
        expect(u.createdKeyFile).toBeNull();
        expect((await getMerchant(store.db, m.merchant_id))?.webhook_secret).toBe(m.webhook_secret);
      } finally {
        await store.close();
      }
    } finally {
      await own.dispose();
    }
  }, 60_000);
});

describe('a store from before encryption at rest', () => {
  it('has its secrets in the clear sealed at the first start with a key, and they keep working', async () => {
    const legacy = await freshStoreUrl();
    const receiver = await startReceiver('x');
    try {
      // Written as the code before this change wrote it: the same schema, the secret column in the clear.
      const store = openStore(legacy.url, { poolSize: 1 });
      const secret = 'whsec_legacy_0123456789abcdefghijklmnopqrstuv';
      let sk = '';
      try {
        await migrate(store);
        const raw = store.db.withoutPlugins();
        const m = await createMerchant(raw, systemClock, { name: 'Old', mode: 'test', webhookUrl: receiver.url });
        await raw.updateTable('merchants').set({ webhook_secret: secret }).where('id', '=', m.merchant_id).execute();
        sk = m.secret_key;
      } finally {
        await store.close();
      }
      receiver.secret = secret;
      const file = legacy.url.startsWith('sqlite:') ? legacy.url.slice('sqlite:'.length) : null;
      const fileBytes = () =>
        Buffer.concat([`${file}`, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
      // The set-up is what it claims: the secret lies in the file in the clear.
      if (file) expect(fileBytes().includes(Buffer.from(secret))).toBe(true);

      const s = await spawnService(main.path, {
        DATABASE_URL: legacy.url,
        SECRETS_KEY_FILE: key1,
        SECRETS_KEY: '',
        PUBLIC_URL: 'https://pay.example.com',
      });
      try {
        await s.listening();
        expect(s.stdout()).toMatch(/Encrypted [1-9]\d* secrets the store held in the clear/);
        const r = await fetch(`${s.url}/api/v1/webhook-deliveries/test`, {
          method: 'POST',
          headers: { 'x-api-key': sk },
        });
        expect(r.status).toBe(202);
        const got = await receiver.waitFor((all) => all.length > 0);
        expect(got[0]?.verified).toBe(true);
      } finally {
        s.child.kill('SIGTERM');
        await s.exited;
      }
      const check = openStore(legacy.url, { poolSize: 1 });
      try {
        const stored = await listStoredSecrets(check.db);
        expect(stored.filter((x) => !x.stored.startsWith('enc1:'))).toEqual([]);
      } finally {
        await check.close();
      }
      if (file) {
        // Not even in freed pages or the WAL: both are scrubbed when secrets are sealed.
        expect(fileBytes().includes(Buffer.from(secret))).toBe(false);
      }
    } finally {
      await receiver.close();
      await legacy.dispose();
    }
  }, 120_000);
});
