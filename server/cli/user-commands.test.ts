import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashFetch, signIn } from '../../dashboard-api/testing/client.js';
import { startTestService, type TestService } from '../testing/harness.js';

let t: TestService;

/** The real CLI in its own process on the service's store, with `input` on its standard input. */
function admin(args: string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'npx',
      ['tsx', 'server/admin-cli.ts', ...args],
      { env: { ...process.env, DATABASE_URL: t.service.config.DATABASE_URL, PUBLIC_URL: t.url } },
      (e, stdout, stderr) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t.close();
});

// Each case runs the CLI in a process of its own (a few seconds each under load).
describe('admin CLI: dashboard users', { timeout: 120_000 }, () => {
  it('user create --password-stdin: the user signs in with that password, which is never printed', async () => {
    const r = await admin(
      [
        'user',
        'create',
        '--merchant',
        t.merchant.merchant_id,
        '--email',
        'Eve@Shop.example',
        '--role',
        'owner',
        '--password-stdin',
        '--json',
      ],
      'a strong password\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      email: 'eve@shop.example',
      role: 'owner',
      created: true,
      set_password_url: null,
    });
    expect(r.stdout + r.stderr).not.toContain('a strong password');
    await signIn(t.url, 'eve@shop.example', 'a strong password');
  });

  it('user create without a password prints a one-time link to the set-password page', async () => {
    const r = await admin([
      'user',
      'create',
      '--merchant',
      t.merchant.merchant_id,
      '--email',
      'finn@shop.example',
      '--role',
      'viewer',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const link = /(http\S+\/dashboard\/set-password#token=(pw_[\w-]+))/.exec(r.stdout);
    expect(link?.[1]?.startsWith(`${t.url}/dashboard/set-password#token=`)).toBe(true);
    expect(
      (await dashFetch(t.url, '/password', { body: { token: link?.[2], password: 'finn password 1' } })).status,
    ).toBe(200);
    await signIn(t.url, 'finn@shop.example', 'finn password 1');
  });

  it('refuses bad input with a usage error and writes nothing', async () => {
    for (const args of [
      ['--email', 'not-an-address', '--role', 'owner'],
      ['--email', 'gus@shop.example', '--role', 'admin'],
    ]) {
      const r = await admin(['user', 'create', '--merchant', t.merchant.merchant_id, ...args]);
      expect(r.code).toBe(2);
    }
    const short = await admin(
      [
        'user',
        'create',
        '--merchant',
        t.merchant.merchant_id,
        '--email',
        'gus@shop.example',
        '--role',
        'owner',
        '--password-stdin',
      ],
      'short\n',
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/at least 10/);
    const unknown = await admin([
      'user',
      'create',
      '--merchant',
      'mer_nope',
      '--email',
      'gus@shop.example',
      '--role',
      'owner',
    ]);
    expect(unknown.code).toBe(2);
    const list = JSON.parse((await admin(['user', 'list', '--json'])).stdout) as { email: string }[];
    expect(list.map((u) => u.email)).not.toContain('gus@shop.example');
  });

  it('user list, reset-password and deactivate: sessions end at once', async () => {
    const session = await signIn(t.url, 'eve@shop.example', 'a strong password');
    const list = JSON.parse((await admin(['user', 'list', '--merchant', t.merchant.merchant_id, '--json'])).stdout);
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          email: 'eve@shop.example',
          active: true,
          password_set: true,
          merchants: [{ merchant_id: t.merchant.merchant_id, role: 'owner' }],
        }),
      ]),
    );
    const reset = await admin(
      ['user', 'reset-password', '--email', 'eve@shop.example', '--password-stdin'],
      'another strong one\n',
    );
    expect(reset.code, reset.stderr).toBe(0);
    expect((await session.call(`/merchants/${t.merchant.merchant_id}/payments`)).status).toBe(401);
    const again = await signIn(t.url, 'eve@shop.example', 'another strong one');
    expect((await admin(['user', 'deactivate', '--email', 'eve@shop.example'])).code).toBe(0);
    expect((await again.call(`/merchants/${t.merchant.merchant_id}/payments`)).status).toBe(401);
    expect(
      (await dashFetch(t.url, '/session', { body: { email: 'eve@shop.example', password: 'another strong one' } }))
        .status,
    ).toBe(401);
  });
});
