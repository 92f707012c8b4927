import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStoreUrl } from '../../server/testing/store.js';
import { systemClock } from '../clock.js';
import {
  createMerchant,
  deactivateKey,
  findMerchantByKey,
  getMerchant,
  type KeyMatch,
  rotateKey,
  updateMerchant,
} from '../merchants/merchants.js';
import { writtenTables } from './changes.js';
import { migrate, openStore, type Store } from './db.js';
import { isPostgres } from './dialect.js';
import { ReadCache } from './read-cache.js';

// `service` caches; `other` is a second connection (pool) on the same store: to the first one it is exactly what the
// admin CLI or a second service process is. Both real, on SQLite or on TEST_DATABASE_URL's PostgreSQL.
let service: Store;
let other: Store;
let dispose: () => Promise<void>;
beforeAll(async () => {
  const s = await freshStoreUrl();
  dispose = s.dispose;
  service = openStore(s.url);
  await migrate(service);
  await service.watchOtherProcesses();
  other = openStore(s.url);
});
afterAll(async () => {
  await other.close();
  await service.close();
  await dispose();
});

const keyCache = () => new ReadCache<KeyMatch>(service.changes, ['api_keys', 'merchants'], 100);

/** Other processes' changes reach PostgreSQL listeners as notifications, a moment after their commit. */
async function seenByService<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('read caches stay exact', () => {
  it('serve a key from memory, and drop it when another process deactivates it', async () => {
    const m = await createMerchant(other.db, systemClock, { name: 'A', mode: 'test' });
    const cache = keyCache();
    const first = await findMerchantByKey(service.db, m.secret_key, cache);
    expect(first?.merchant.id).toBe(m.merchant_id);
    expect(cache.size).toBe(1);
    // A hit is the very same object: no store read happened.
    expect(await findMerchantByKey(service.db, m.secret_key, cache)).toBe(first);

    expect(await deactivateKey(other.db, systemClock, m.secret_key)).toBe(true);
    if (service.dialect === 'sqlite') {
      // SQLite: the next read checks data_version first, so not even one stale answer is possible.
      expect(await findMerchantByKey(service.db, m.secret_key, cache)).toBeNull();
    } else {
      expect(
        await seenByService(
          () => findMerchantByKey(service.db, m.secret_key, cache),
          (v) => v === null,
        ),
      ).toBeNull();
    }
    expect(cache.size).toBe(0);
  });

  it('drop a merchant when this process changes it, before the write call returns', async () => {
    const m = await createMerchant(service.db, systemClock, { name: 'B', mode: 'test' });
    const cache = keyCache();
    expect((await findMerchantByKey(service.db, m.public_key, cache))?.merchant.allowed_origins).toBe('[]');
    await updateMerchant(service.db, systemClock, m.merchant_id, { allowedOrigins: ['https://shop.example'] });
    expect((await findMerchantByKey(service.db, m.public_key, cache))?.merchant.allowed_origins).toBe(
      '["https://shop.example"]',
    );
    await rotateKey(service.db, systemClock, m.merchant_id, 'public');
    expect(await findMerchantByKey(service.db, m.public_key, cache)).toBeNull();
  });

  it('never keep a row read while a change committed', async () => {
    const m = await createMerchant(service.db, systemClock, { name: 'C', mode: 'test' });
    const cache = new ReadCache<{ name: string }>(service.changes, ['merchants'], 100);
    // The read returns the old row, but the rename commits before the cache would keep it.
    const stale = await cache.get(m.merchant_id, async () => {
      const row = await getMerchant(service.db, m.merchant_id);
      await service.db.updateTable('merchants').set({ name: 'C2' }).where('id', '=', m.merchant_id).execute();
      return row;
    });
    expect(stale?.name).toBe('C');
    expect(cache.size).toBe(0);
    const fresh = await cache.get(m.merchant_id, () => getMerchant(service.db, m.merchant_id));
    expect(fresh?.name).toBe('C2');
  });

  it('empty again at commit what was read between a transaction write and its commit', async () => {
    const m = await createMerchant(service.db, systemClock, { name: 'D', mode: 'test' });
    const cache = new ReadCache<{ name: string }>(service.changes, ['merchants'], 100);
    let readInside: string | undefined;
    await service.db.transaction().execute(async (trx) => {
      await trx.updateTable('merchants').set({ name: 'D2' }).where('id', '=', m.merchant_id).execute();
      // PostgreSQL: another pooled connection still sees the committed 'D' and the cache keeps it for now.
      // SQLite: the single connection is held by the transaction, so that read has to wait (skipped here).
      if (isPostgres(service.db))
        readInside = (await cache.get(m.merchant_id, () => getMerchant(service.db, m.merchant_id)))?.name;
    });
    if (readInside !== undefined) expect(readInside).toBe('D');
    expect((await cache.get(m.merchant_id, () => getMerchant(service.db, m.merchant_id)))?.name).toBe('D2');
  });

  it('never remember a miss, so a row inserted later is found', async () => {
    const cache = new ReadCache<{ name: string }>(service.changes, ['merchants'], 100);
    expect(await cache.get('mer_later', () => getMerchant(service.db, 'mer_later'))).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keep at most its bound, dropping the oldest first', async () => {
    const cache = new ReadCache<{ n: number }>(service.changes, ['payments'], 3);
    for (let n = 0; n < 5; n++) await cache.get(`k${n}`, async () => ({ n }));
    expect(cache.size).toBe(3);
    let loads = 0;
    await cache.get('k0', async () => ({ n: ++loads }));
    await cache.get('k4', async () => ({ n: ++loads }));
    expect(loads).toBe(1);
  });

  it('are bypassed by a store that does not watch other processes (the admin CLI)', async () => {
    const cache = new ReadCache<KeyMatch>(other.changes, ['api_keys'], 100);
    const m = await createMerchant(other.db, systemClock, { name: 'E', mode: 'test' });
    expect(await findMerchantByKey(other.db, m.secret_key, cache)).not.toBeNull();
    expect(cache.size).toBe(0);
  });

  it.runIf(process.env.TEST_DATABASE_URL?.startsWith('postgres'))(
    'turn off while the PostgreSQL listener is down, and back on when it reconnects',
    async () => {
      const m = await createMerchant(other.db, systemClock, { name: 'F', mode: 'test' });
      const cache = keyCache();
      await findMerchantByKey(service.db, m.secret_key, cache);
      expect(cache.size).toBe(1);
      // Cut the listening connection (the only one waiting in LISTEN): notifications sent meanwhile would be lost.
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`.execute(other.db);
      await seenByService(
        async () => cache.size,
        (n) => n === 0,
      );
      expect(cache.size).toBe(0);
      await deactivateKey(other.db, systemClock, m.secret_key);
      // Off: every read goes to the store, so the deactivation counts at once.
      expect(await findMerchantByKey(service.db, m.secret_key, cache)).toBeNull();
      const again = await createMerchant(other.db, systemClock, { name: 'G', mode: 'test' });
      // Back on within the retry delay (about a second).
      const size = await seenByService(
        async () => {
          await findMerchantByKey(service.db, again.secret_key, cache);
          return cache.size;
        },
        (n) => n === 1,
      );
      expect(size).toBe(1);
    },
  );
});

describe('writtenTables', () => {
  it('names the cached tables a statement can change rows of', () => {
    expect(writtenTables('select * from "payments"')).toEqual([]);
    expect(writtenTables('update "payments" set "status" = $1 where "id" = $2')).toEqual(['payments']);
    expect(writtenTables('delete from "api_keys" where "id" = ?')).toEqual(['api_keys']);
    expect(writtenTables('  UPDATE merchants SET name = 1')).toEqual(['merchants']);
    expect(writtenTables('truncate table payments')).toEqual(['payments']);
    // Plain inserts change no existing row; an upsert does.
    expect(writtenTables('insert into "payments" ("id") values ($1)')).toEqual([]);
    expect(
      writtenTables('insert into "merchants" ("id") values (?) on conflict ("id") do update set "name" = ?'),
    ).toEqual(['merchants']);
    expect(writtenTables('insert or replace into "api_keys" ("id") values (?)')).toEqual(['api_keys']);
    expect(writtenTables('with x as (update "payments" set "sequence" = 1 returning id) select * from x')).toEqual([
      'payments',
    ]);
    // Other tables, and look-alike names, are not watched.
    expect(writtenTables('update "payments_archive" set x = 1')).toEqual([]);
    expect(writtenTables('update "deposits" set "removed" = 1')).toEqual([]);
  });
});
