import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStoreUrl } from '../../server/testing/store.js';
import { migrate, openStore, type Store } from './db.js';
import { InsertBatcher } from './insert-batcher.js';
import type { MerchantTable } from './schema.js';

let store: Store;
let dispose: () => Promise<void>;
beforeAll(async () => {
  const s = await freshStoreUrl();
  dispose = s.dispose;
  store = openStore(s.url);
  await migrate(store);
});
afterAll(async () => {
  await store.close();
  await dispose();
});

const merchant = (id: string): MerchantTable => ({
  id,
  sub_partner_id: `sub_${id}`,
  name: id,
  mode: 'test',
  webhook_url: null,
  webhook_secret: 'x',
  webhook_enabled: 1,
  allowed_origins: '[]',
  underpaid_tolerance_bps: 0,
  next_address_index: 0,
  active: 1,
  created_at: 0,
  updated_at: 0,
});

describe('InsertBatcher (group commit)', () => {
  it('commits concurrent rows in few statements, and isolates a failing row', async () => {
    const statements: number[] = [];
    const b = new InsertBatcher<MerchantTable>(async (rows) => {
      statements.push(rows.length);
      await store.db.insertInto('merchants').values(rows).execute();
    });
    await b.insert(merchant('taken'));
    const results = await Promise.allSettled([
      ...Array.from({ length: 50 }, (_, i) => b.insert(merchant(`m${i}`))),
      b.insert(merchant('taken')),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(50);
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    const count = await store.db
      .selectFrom('merchants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(51);
    // The 51 concurrent rows went in as one batch, which failed on the duplicate and was retried row by row.
    expect(statements[1]).toBe(51);
  });
});
