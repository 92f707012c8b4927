import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleService, spawnService } from './testing/service-process.js';

/*
 * compose.yaml's environment, with a database password as `openssl rand -base64` makes them (+, /, =), on this
 * host's PostgreSQL with a role created with that password. Compose cannot run here, so the test builds the exact
 * environment compose gives the service: .env.example filled in (env_file: every line, empty ones included), then
 * the service's `environment:` block with its ${...} interpolated. Only the host differs: `postgres` (compose's DNS
 * name) becomes 127.0.0.1.
 */

const pgBase = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const role = `compose_${randomBytes(4).toString('hex')}`;
const password = `Zx+/=${randomBytes(12).toString('base64')}+/=`;
let bundle: { path: string; dispose(): void } | undefined;
let reachable = true;

async function asAdmin(query: string): Promise<void> {
  const c = new pg.Client({ connectionString: pgBase });
  await c.connect();
  try {
    await c.query(query);
  } finally {
    await c.end();
  }
}

/** KEY=value lines, as compose reads an env_file (comments and blank lines skipped, empty values kept). */
function envFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m?.[1]) out[m[1]] = m[2] ?? '';
  }
  return out;
}

/** compose's ${VAR}, ${VAR:-default} and ${VAR:?error} against the .env file. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    const v = vars[name];
    if (v !== undefined && v !== '') return v;
    if (op === '?') throw new Error(`compose would refuse: ${arg}`);
    return op === '-' ? (arg ?? '') : '';
  });
}

/** The `environment:` block of the `service` service in compose.yaml. */
function serviceEnvironment(): Record<string, string> {
  const compose = readFileSync(new URL('../compose.yaml', import.meta.url), 'utf8');
  const block = /\n {2}service:\n[\s\S]*?\n {4}environment:\n((?: {6}.*\n| *#.*\n)+)/.exec(compose)?.[1] ?? '';
  const out: Record<string, string> = {};
  for (const line of block.split('\n')) {
    const m = /^ {6}([A-Z_][A-Z0-9_]*): (.*)$/.exec(line);
    if (m?.[1]) out[m[1]] = (m[2] ?? '').replace(/^"(.*)"$/, '$1');
  }
  return out;
}

beforeAll(async () => {
  bundle = await bundleService();
  try {
    await asAdmin(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await asAdmin(`CREATE DATABASE ${role} OWNER ${role}`);
  } catch {
    reachable = false;
  }
}, 60_000);

afterAll(async () => {
  bundle?.dispose();
  if (!reachable) return;
  await asAdmin(`DROP DATABASE IF EXISTS ${role} WITH (FORCE)`);
  await asAdmin(`DROP ROLE IF EXISTS ${role}`);
});

describe('compose with a generated database password (+, /, =)', () => {
  it('comes up on PostgreSQL with the environment compose produces, and makes no demo merchant', async (ctx) => {
    if (!reachable) ctx.skip(`no PostgreSQL at ${pgBase} to create a role on`);
    const dotEnv: Record<string, string> = {
      ...envFile(readFileSync(new URL('../.env.example', import.meta.url), 'utf8')),
      POSTGRES_PASSWORD: password,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: 'https://pay.example.com',
    };
    const env = { ...dotEnv };
    for (const [k, v] of Object.entries(serviceEnvironment())) env[k] = interpolate(v, dotEnv);
    expect(env.DATABASE_URL).not.toContain(password);
    const u = new URL(pgBase);
    env.DATABASE_URL = (env.DATABASE_URL ?? '')
      .replace('@postgres:5432/payments', `@${u.host}/${role}`)
      .replace('postgres://payments@', `postgres://${role}@`);
    expect(env.PGPASSWORD).toBe(password);
    // .env's empty PORT means 8787 inside the container; here, a free port of this host (spawnService picks one).
    delete env.PORT;

    const p = await spawnService((bundle as { path: string }).path, env);
    await p.listening();
    const ready = await fetch(`${p.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(p.stdout()).toContain('(store: postgres)');
    expect(p.stdout()).not.toContain('Created a demo');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.stderr()).not.toMatch(/Fatal|Invalid/);
  });

  it('the password pasted into DATABASE_URL (the old compose) is one line naming DATABASE_URL, password hidden', async () => {
    const u = new URL(pgBase);
    const p = await spawnService((bundle as { path: string }).path, {
      DATABASE_URL: `postgres://${role}:${password}@${u.host}/${role}`,
    });
    expect(await p.exited).toBe(1);
    const err = p.stderr().trimEnd();
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toMatch(/^Invalid configuration: DATABASE_URL: is not a valid URL: percent-encode the password/);
    expect(err).toContain(`(got "postgres://${role}:***@${u.host}/${role}")`);
    expect(err).not.toContain(password.slice(5));
  });
});
