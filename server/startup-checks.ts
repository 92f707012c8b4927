import { accessSync, constants, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { hasLiveMerchant } from '../core/merchants/merchants.js';
import type { Database } from '../core/store/schema.js';
import { type Config, ConfigError, publicUrlRequired, redactDatabaseUrl } from './config.js';

/** A start-up problem an operator fixes outside the code (a volume, the database): printed as one line. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * What must hold before the service builds anything, each failure one line that says what to fix: the SQLite
 * store's directory is writable (and, with REQUIRE_VOLUME, a mounted volume, so a forgotten `-v` cannot lose the
 * data with the container); a PostgreSQL store answers within STORE_WAIT_SECONDS.
 */
export async function checkStartup(config: Config): Promise<void> {
  if (config.DATABASE_URL.startsWith('sqlite:')) checkSqliteDir(config);
  else await waitForPostgres(config.DATABASE_URL, config.STORE_WAIT_SECONDS * 1000);
}

function checkSqliteDir(config: Config): void {
  const file = config.DATABASE_URL.slice('sqlite:'.length);
  if (file === ':memory:') return;
  const dir = dirname(resolve(file));
  const volume = config.REQUIRE_VOLUME ? resolve(config.REQUIRE_VOLUME) : null;
  if (volume && (dir === volume || dir.startsWith(volume + sep)) && !isMountPoint(volume)) {
    throw new StartupError(
      `${volume} is not a mounted volume, so the SQLite store would be lost with the container: mount one ` +
        `(docker run -v payments-data:${volume} ...) or set DATABASE_URL=postgres://...`,
    );
  }
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new StartupError(
      `cannot write the SQLite store's directory ${dir} (${code}): check that it exists and that this user ` +
        `(uid ${process.getuid?.() ?? '?'}) may write it`,
    );
  }
}

/** A mount point per /proc/self/mountinfo (Linux), else by its device differing from its parent's. */
function isMountPoint(path: string): boolean {
  try {
    const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[4]?.replace(/\\040/g, ' '));
    return mounts.includes(path);
  } catch {
    try {
      return statSync(path).dev !== statSync(dirname(path)).dev;
    } catch {
      return false;
    }
  }
}

/** Retries a connection until `waitMs` has passed: a database started beside the service may still be coming up. */
async function waitForPostgres(url: string, waitMs: number): Promise<void> {
  const end = Date.now() + waitMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: Math.max(1000, end - Date.now()) });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch (e) {
      await client.end().catch(() => undefined);
      const err = e as Error & { code?: string };
      // Refused or unresolvable: the server may be starting. Anything else (password, no such database) is final.
      const transient = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', '57P03'].includes(err.code ?? '');
      if (!transient || Date.now() >= end) {
        throw new StartupError(
          `the PostgreSQL store at ${redactDatabaseUrl(url)} is unreachable: ${err.message || err.code}` +
            (transient ? ` (waited ${Math.round(waitMs / 1000)} s; STORE_WAIT_SECONDS)` : ''),
        );
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * The service (not the admin CLI, benchmarks or tests) requires PUBLIC_URL once live payments exist: CHAINS_CONFIG
 * is set or the store holds a live merchant (asked of the store once it is open). A test-mode trial on a laptop never
 * needs it.
 */
export async function requirePublicUrl(config: Config, db: Kysely<Database>): Promise<void> {
  if (config.PUBLIC_URL_SET) return;
  if (config.CHAINS_CONFIG) throw new ConfigError(publicUrlRequired('CHAINS_CONFIG is set'));
  if (await hasLiveMerchant(db)) throw new ConfigError(publicUrlRequired('the store has a live merchant'));
}
