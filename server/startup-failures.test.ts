import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../core/clock.js';
import { createMerchant, listMerchants } from '../core/merchants/merchants.js';
import { unlockStore } from '../core/secrets/unlock.js';
import { migrate, openStore } from '../core/store/db.js';
import { bundleService, freePort, spawnService } from './testing/service-process.js';

let bundle: { path: string; dispose(): void };
const dir = mkdtempSync(join(tmpdir(), 'cps-start-'));

beforeAll(async () => {
  bundle = await bundleService();
}, 60_000);
afterAll(() => {
  bundle.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the real service with `env` and expects it to stop by itself: exit 1, one line on stderr, no stack. */
async function refusesToStart(env: Record<string, string>): Promise<string> {
  const p = await spawnService(bundle.path, { DATABASE_URL: `sqlite:${join(dir, 'ok.sqlite')}`, ...env });
  const code = await p.exited;
  const err = p.stderr();
  expect(code, err).toBe(1);
  expect(err.trimEnd().split('\n'), err).toHaveLength(1);
  expect(err).not.toMatch(/^\s+at /m);
  expect(p.stdout()).not.toContain('Service listening');
  return err;
}

describe('bad configuration stops start-up with one clear line', () => {
  it('a malformed value names its variable', async () => {
    expect(await refusesToStart({ TRUST_PROXY: 'yes' })).toMatch(/^Invalid configuration: TRUST_PROXY: .*"yes"/);
    expect(await refusesToStart({ MIN_AMOUNTS_USD: '{BTC: 5}' })).toMatch(/MIN_AMOUNTS_USD/);
  });

  it('an unreachable DATABASE_URL says so, without the password, after STORE_WAIT_SECONDS', async () => {
    const port = await freePort(); // nothing listens there
    const started = Date.now();
    const err = await refusesToStart({
      DATABASE_URL: `postgres://shop:s3cret@127.0.0.1:${port}/payments`,
      STORE_WAIT_SECONDS: '1',
    });
    expect(err).toMatch(
      /^Cannot start: the PostgreSQL store at postgres:\/\/shop:\*\*\*@127\.0\.0\.1:\d+\/payments is unreachable/,
    );
    expect(err).toContain('ECONNREFUSED');
    expect(err).not.toContain('s3cret');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('a data directory that is not a mounted volume (REQUIRE_VOLUME, as the image sets it) is refused', async () => {
    const volume = join(dir, 'data');
    const err = await refusesToStart({ REQUIRE_VOLUME: volume, DATABASE_URL: `sqlite:${volume}/service.sqlite` });
    expect(err).toMatch(new RegExp(`^Cannot start: ${volume} is not a mounted volume`));
  });

  it('a SQLite store whose directory cannot be made says which directory', async () => {
    const notADir = join(dir, 'file');
    writeFileSync(notADir, 'x');
    const err = await refusesToStart({ DATABASE_URL: `sqlite:${notADir}/service.sqlite` });
    expect(err).toMatch(/^Cannot start: cannot write the SQLite store's directory .*file \((ENOTDIR|EEXIST)\)/);
  });

  it('a store of its own with nothing wrong starts (the line above is not printed for everything)', async () => {
    const p = await spawnService(bundle.path, { DATABASE_URL: `sqlite:${join(dir, 'fine.sqlite')}` });
    await p.listening();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });
});

describe('production defaults', () => {
  it('live payments configured (CHAINS_CONFIG) without PUBLIC_URL: refused with one line, not links to 0.0.0.0', async () => {
    const chains = join(dir, 'chains.json');
    const eth = { rpcUrl: 'http://127.0.0.1:1', chainId: 1, confirmations: 12 };
    writeFileSync(chains, JSON.stringify({ networks: { eth } }));
    const err = await refusesToStart({ CHAINS_CONFIG: chains, HOST: '0.0.0.0' });
    expect(err).toMatch(/^Invalid configuration: PUBLIC_URL: required for live payments \(CHAINS_CONFIG is set\)/);
  });

  it('a store holding a live merchant without PUBLIC_URL: refused with one line; with it, the service starts', async () => {
    const url = `sqlite:${join(dir, 'live.sqlite')}`;
    const store = openStore(url);
    await migrate(store);
    // The spawned service finds the same key: no key configured, both use the default key file.
    await unlockStore(store, {}, url);
    await createMerchant(store.db, systemClock, { name: 'Live shop', mode: 'live' });
    await store.close();
    const err = await refusesToStart({ DATABASE_URL: url });
    expect(err).toMatch(
      /^Invalid configuration: PUBLIC_URL: required for live payments \(the store has a live merchant\)/,
    );

    const p = await spawnService(bundle.path, { DATABASE_URL: url, PUBLIC_URL: 'https://pay.example.com' });
    await p.listening();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('DEMO_MERCHANT=false (the image, compose) creates no demo merchant or demo@example.com owner on a fresh store', async () => {
    const url = `sqlite:${join(dir, 'no-demo.sqlite')}`;
    const p = await spawnService(bundle.path, { DATABASE_URL: url, DEMO_MERCHANT: 'false' });
    await p.listening();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.stdout()).not.toContain('Created a demo');
    expect(p.stdout()).toContain('No merchant yet (DEMO_MERCHANT=false)');
    const store = openStore(url);
    expect(await listMerchants(store.db)).toEqual([]);
    expect(await store.db.selectFrom('dashboard_users').select('email').execute()).toEqual([]);
    await store.close();
    expect(await refusesToStart({ DEMO_MERCHANT: 'no' })).toMatch(/^Invalid configuration: DEMO_MERCHANT: /);
  });

  it('by default (npm start) a fresh store gets the demo merchant', async () => {
    const p = await spawnService(bundle.path, { DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}` });
    await p.listening();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.stdout()).toContain('Created a demo test-mode merchant');
  });
});
