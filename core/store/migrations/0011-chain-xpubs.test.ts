import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStoreUrl } from '../../../server/testing/store.js';
import { migrate, openStore, type Store } from '../db.js';
import { migrations } from './index.js';

let disposeStore: () => Promise<void>;
let store: Store;

beforeAll(async () => {
  const fresh = await freshStoreUrl();
  disposeStore = fresh.dispose;
  store = openStore(fresh.url);
});
afterAll(async () => {
  await store?.close();
  await disposeStore?.();
});

describe('migration 0011: one key per merchant and chain', () => {
  it('carries an EVM key and the merchant-wide counter over to the key row, so no EVM address is handed out twice', async () => {
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
    const before = await migrator.migrateTo('0009-dashboard');
    expect(before.error).toBeUndefined();
    const now = Date.now();
    await sql`insert into merchants (id, sub_partner_id, name, mode, webhook_url, webhook_secret, webhook_enabled, allowed_origins, underpaid_tolerance_bps, next_address_index, active, created_at, updated_at)
      values ('mer_a', 'sub_a', 'A', 'live', null, 'whsec', 1, '[]', 0, 7, 1, ${now}, ${now}),
             ('mer_b', 'sub_b', 'B', 'live', null, 'whsec', 1, '[]', 0, 3, 1, ${now}, ${now})`.execute(store.db);
    await sql`insert into merchant_xpubs (merchant_id, family, xpub, created_at, updated_at)
      values ('mer_a', 'evm', 'xpubA', ${now}, ${now})`.execute(store.db);

    await migrate(store);
    const keys = await store.db.selectFrom('merchant_xpubs').selectAll().execute();
    expect(keys.map((k) => ({ merchant_id: k.merchant_id, chain: k.chain, next_index: Number(k.next_index) }))).toEqual(
      [{ merchant_id: 'mer_a', chain: 'evm', next_index: 7 }],
    );
    // A second key of the same merchant on another chain starts its own count; the same key text on another
    // chain is another key's slot, on the same chain it is refused by the unique constraint.
    await store.db
      .insertInto('merchant_xpubs')
      .values({ merchant_id: 'mer_a', chain: 'ltc', xpub: 'xpubA', created_at: now, updated_at: now })
      .execute();
    await expect(
      store.db
        .insertInto('merchant_xpubs')
        .values({ merchant_id: 'mer_b', chain: 'ltc', xpub: 'xpubA', created_at: now, updated_at: now })
        .execute(),
    ).rejects.toThrow();
    const ltc = await store.db
      .selectFrom('merchant_xpubs')
      .select('next_index')
      .where('chain', '=', 'ltc')
      .executeTakeFirstOrThrow();
    expect(Number(ltc.next_index)).toBe(0);
  });
});
