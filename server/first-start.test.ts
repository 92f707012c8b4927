import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../core/store/db.js';
import { bundleService, type ServiceProcess, spawnService } from './testing/service-process.js';
import { freshStoreUrl } from './testing/store.js';

let bundle: { path: string; dispose(): void };
let store: { url: string; dispose: () => Promise<void> };
const procs: ServiceProcess[] = [];

beforeAll(async () => {
  bundle = await bundleService();
  store = await freshStoreUrl();
}, 60_000);
afterAll(async () => {
  for (const p of procs) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
  bundle.dispose();
  await store.dispose();
});

describe('first start on a fresh store', () => {
  it('several processes started at the same moment all come up, and exactly one creates the demo merchant', async () => {
    const n = 4;
    procs.push(
      ...(await Promise.all(Array.from({ length: n }, () => spawnService(bundle.path, { DATABASE_URL: store.url })))),
    );
    await Promise.all(procs.map((p) => p.listening(60_000)));
    for (const p of procs) {
      expect(p.stderr()).not.toMatch(/Fatal|duplicate key|UNIQUE constraint/);
      expect((await fetch(`${p.url}/readyz`)).status).toBe(200);
    }
    expect(procs.filter((p) => p.stdout().includes('Created a demo test-mode merchant'))).toHaveLength(1);
    // Every process serves the demo storefront's key, the one merchant's.
    const configs = await Promise.all(procs.map(async (p) => (await fetch(`${p.url}/demo/config.js`)).text()));
    const keys = new Set(configs.map((c) => /"publicKey":"(dk_test_[^"]+)"/.exec(c)?.[1]));
    expect([...keys]).toEqual([expect.stringMatching(/^dk_test_/)]);

    const s = openStore(store.url, { poolSize: 1 });
    try {
      expect(await s.db.selectFrom('merchants').select('id').execute()).toHaveLength(1);
      expect(await s.db.selectFrom('dashboard_users').select('email').execute()).toEqual([
        { email: 'demo@example.com' },
      ]);
      // The lock row is gone once the first start is done.
      const lock = await s.db.selectFrom('dropin_settings').select('key').where('key', 'like', 'lock:%').execute();
      expect(lock).toEqual([]);
    } finally {
      await s.close();
    }
  }, 120_000);
});
