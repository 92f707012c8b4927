import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './testing/harness.js';
import { freshStoreUrl } from './testing/store.js';

const run = promisify(execFile);
let store: { url: string; dispose: () => Promise<void> };

/** Runs the real CLI as a merchant's operator would, in its own process. */
async function admin(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await run('npx', ['tsx', 'server/admin-cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: store.url, ...env },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

beforeAll(async () => {
  store = await freshStoreUrl();
});
afterAll(async () => {
  await store.dispose();
});

describe('admin CLI', () => {
  let t: TestService | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('creates a merchant on a fresh store and prints the JSON README documents; keys work once, as hashes', async () => {
    const r = await admin([
      'merchant',
      'create',
      '--name',
      'Shop',
      '--mode',
      'test',
      '--webhook-url',
      'http://127.0.0.1:9/hook',
      '--allowed-origin',
      'https://shop.example',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(Object.keys(created).sort()).toEqual([
      'merchant_id',
      'mode',
      'public_key',
      'secret_key',
      'sub_partner_id',
      'webhook_secret',
    ]);
    expect(created.secret_key).toMatch(/^sk_test_/);
    expect(created.public_key).toMatch(/^dk_test_/);
    expect(created.mode).toBe('test');

    const list = await admin(['merchant', 'list', '--json']);
    expect(list.stdout).not.toContain(created.secret_key);
    expect(JSON.parse(list.stdout)[0]).toMatchObject({
      merchant_id: created.merchant_id,
      allowed_origins: ['https://shop.example'],
    });

    const keys = JSON.parse((await admin(['key', 'list', '--merchant', created.merchant_id, '--json'])).stdout);
    expect(keys).toHaveLength(2);
    expect(JSON.stringify(keys)).not.toContain(created.secret_key);

    // Rotation and deactivation by the CLI, on the store a service would share.
    const { DATABASE_URL: _, ...env } = process.env;
    void env;
    const rotated = JSON.parse(
      (await admin(['key', 'rotate', '--merchant', created.merchant_id, '--kind', 'secret', '--json'])).stdout,
    );
    expect(rotated.key).toMatch(/^sk_test_/);
    const deact = await admin(['key', 'deactivate', '--key', rotated.key]);
    expect(deact.code).toBe(0);
  }, 60_000);

  it('says what is wrong and exits 2 on bad usage, with --help on each command', async () => {
    const bad = await admin(['merchant', 'create', '--name', 'X', '--mode', 'prod']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--mode/);
    const help = await admin(['key', 'rotate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--kind/);
    const overview = await admin(['--help']);
    expect(overview.stdout).toMatch(/merchant create/);
  }, 60_000);

  it('a key deactivated by the CLI (another process) gets 401 from a running service within KEY_CACHE_MS', async () => {
    const bound = 1500;
    t = await startTestService({ env: { KEY_CACHE_MS: String(bound) } });
    const service = t;
    // A client calls all along, so the key stays in the service's cache while the CLI works.
    let refusedAt = 0;
    let calling = true;
    const calls = (async () => {
      while (calling) {
        if ((await service.api('/api/v1/currencies')).status === 401) {
          refusedAt = Date.now();
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const r = await run('npx', ['tsx', 'server/admin-cli.ts', 'key', 'deactivate', '--key', t.merchant.secret_key], {
      env: { ...process.env, DATABASE_URL: t.service.config.DATABASE_URL },
    });
    const deactivatedAt = Date.now();
    expect(r.stdout).toMatch(/deactivated/);
    await Promise.race([calls, new Promise((r) => setTimeout(r, bound + 2000))]);
    calling = false;
    expect(refusedAt).toBeGreaterThan(0);
    expect(refusedAt - deactivatedAt).toBeLessThan(bound + 500);
  }, 60_000);
});
