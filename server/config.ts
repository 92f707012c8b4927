import { z } from 'zod';
import { shippedAssets } from '../core/catalog/assets.js';
import { type ChainsConfig, ChainsConfigError, readChainsConfig } from '../core/chains/chains-config.js';
import { parseFrom } from '../core/mail/transport.js';

const intFrom = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

export const configSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: intFrom(8787).pipe(z.number().max(65535)),
  /**
   * `sqlite:PATH` or `postgres://...`; what a postgres URL leaves out (the password, say) comes from libpq's PGHOST,
   * PGPORT, PGUSER, PGPASSWORD and PGDATABASE, so a password needs no URL encoding (compose.yaml passes PGPASSWORD).
   */
  DATABASE_URL: z
    .string()
    .default('sqlite:data/service.sqlite')
    .refine((v) => /^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(v), 'must be sqlite:PATH or postgres://...')
    .refine(
      (v) => v.startsWith('sqlite:') || URL.canParse(v),
      'is not a valid URL: percent-encode the password (/ is %2F, + is %2B, = is %3D, @ is %40), or leave it out ' +
        'of the URL and set PGPASSWORD',
    ),
  /** The public origin of hosted-page and status links; required once live payments exist (requirePublicUrl). */
  PUBLIC_URL: z.url().optional(),
  /** Create the demo test-mode merchant and its dashboard owner on an empty store (`npm start`; the image: false). */
  DEMO_MERCHANT: z
    .enum(['true', 'false'], 'must be true or false')
    .default('true')
    .transform((v) => v === 'true'),
  /** A directory that must be a mounted volume when the SQLite store lies in it (the container image sets /data). */
  REQUIRE_VOLUME: z.string().startsWith('/', 'must be an absolute path').optional(),
  /**
   * The key sealing the secrets the service reads back (webhook and TOTP secrets, Monero view keys): 32 bytes as
   * base64 or hex. Or SECRETS_KEY_FILE, a file holding it. Neither: a key file beside the SQLite store
   * (core/secrets/key-source.ts).
   */
  SECRETS_KEY: z.string().optional(),
  SECRETS_KEY_FILE: z.string().optional(),
  /** Seconds start-up waits for a PostgreSQL store to answer before giving up with one line. */
  STORE_WAIT_SECONDS: intFrom(10, 0),
  PAYMENT_TTL_SECONDS: intFrom(1200, 60),
  PAYMENT_GRACE_SECONDS: intFrom(900, 0),
  SANDBOX_BLOCK_INTERVAL_MS: intFrom(0),
  RATE_LIMIT_PER_SECOND: intFrom(100),
  /** Proxy hops in front of the service whose X-Forwarded-For entries are believed (0: none, the socket peer). */
  TRUST_PROXY: intFrom(0).pipe(z.number().max(10)),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  BODY_LIMIT_BYTES: intFrom(64 * 1024, 1024),
  /** Longest a key or merchant change made by another process (the admin CLI) goes unseen by this one. */
  KEY_CACHE_MS: intFrom(1000),
  /** Milliseconds a client has to send a request's head, and its whole request (server/http-server.ts). */
  HEADERS_TIMEOUT_MS: intFrom(10_000, 100),
  REQUEST_TIMEOUT_MS: intFrom(30_000, 100),
  /** Milliseconds an idle connection is kept for the client's next request: longer than a proxy's 60 s. */
  KEEP_ALIVE_TIMEOUT_MS: intFrom(65_000, 100),
  /** CoinGecko-compatible price API for live mode. */
  RATES_BASE_URL: z.url().default('https://api.coingecko.com/api/v3'),
  RATES_API_KEY: z.string().optional(),
  /** The header RATES_API_KEY goes in; by default pro for pro-api.coingecko.com, demo otherwise (keyHeaderFor). */
  RATES_API_KEY_HEADER: z.enum(['x-cg-demo-api-key', 'x-cg-pro-api-key']).optional(),
  RATES_REFRESH_SECONDS: intFrom(60, 1),
  RATES_STALE_SECONDS: intFrom(600, 1),
  /** JSON object of per-asset minimums in USD, e.g. {"BTC":"5"}. */
  MIN_AMOUNTS_USD: z.string().optional(),
  /** Milliseconds between expiry sweeps. */
  EXPIRY_SWEEP_MS: intFrom(1000, 10),
  /** Webhook request budget (docs/architecture.md: 10 s); leases outlive it by 5 s. */
  WEBHOOK_TIMEOUT_MS: intFrom(10_000, 100),
  /** Fallback poll of the webhook outbox (wake-ups come from payment changes; this catches the rest). */
  WEBHOOK_POLL_MS: intFrom(1000, 10),
  /** Webhook requests in flight to one endpoint, so a slow endpoint never holds everyone's slots. */
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: intFrom(16, 1),
  /** Path of the JSON file of live networks (EVM: RPC URL, chain id, tokens; btc/ltc/doge: the node); unset = none. */
  CHAINS_CONFIG: z.string().optional(),
  /** Bearer token of GET /metrics; unset, /metrics answers only when the service listens on loopback. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Days a delivered webhook delivery (and its attempts) is kept for the log before it is pruned. */
  WEBHOOK_RETENTION_DAYS: intFrom(30, 1),
  /** Days an audit log entry is kept before it is pruned (a year: long enough for a yearly review). */
  AUDIT_RETENTION_DAYS: intFrom(365, 1),
  /** The gap limit merchants' Bitcoin-family wallets are set to: a longer run of unpaid addresses is warned about. */
  UTXO_GAP_LIMIT: intFrom(20, 1),
  /** New BTC/LTC/DOGE addresses per minute, per merchant and chain, once the unpaid run is past UTXO_GAP_LIMIT. */
  UTXO_PAST_GAP_PER_MINUTE: intFrom(2, 0),
  /**
   * The operator's SMTP relay: smtps://user:pass@host:465 (TLS) or smtp://user:pass@host:587 (STARTTLS). Unset, mail
   * still fills the outbox and owners read it in the dashboard.
   */
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\/[^/\s]+/.test(v), 'must be smtp://[user:pass@]host[:port] or smtps://...')
    .optional(),
  /** The From of every mail: an address or "Name <address>"; required with SMTP_URL. */
  MAIL_FROM: z
    .string()
    .refine((v) => parseFromOrNull(v) !== null, 'must be an address or "Name <address>"')
    .optional(),
  /** Milliseconds the relay has to connect, greet and answer each command. */
  MAIL_TIMEOUT_MS: intFrom(15_000, 100),
  /** Fallback poll of the mail outbox (other processes' mails, due retries). */
  MAIL_POLL_MS: intFrom(1000, 10),
  /** Mails handed to the relay at once. */
  MAIL_CONCURRENCY: intFrom(10, 1),
  /** Days a sent mail (and its attempts) stays in the mail log before it is pruned. */
  MAIL_RETENTION_DAYS: intFrom(30, 1),
  /** The UTC hour (0-23) members' daily notification digests go out. */
  NOTIFY_DIGEST_HOUR: intFrom(7, 0).pipe(z.number().max(23, 'must be an hour 0-23')),
  /** How often digests falling due and persisting conditions (prices stale) are checked. */
  NOTIFY_CHECK_MS: intFrom(60_000, 10),
});

function parseFromOrNull(v: string): { name: string | null; address: string } | null {
  try {
    return parseFrom(v);
  } catch {
    return null;
  }
}

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends Omit<RawConfig, 'PUBLIC_URL' | 'MIN_AMOUNTS_USD'> {
  PUBLIC_URL: string;
  /** Whether PUBLIC_URL was given, rather than made up from HOST and PORT (fine on a laptop, wrong in links). */
  PUBLIC_URL_SET: boolean;
  MIN_AMOUNTS_USD: Record<string, string>;
  /** Live EVM networks read from CHAINS_CONFIG and checked against the catalog. */
  EVM_NETWORKS: ChainsConfig['evm'];
  /** Live Bitcoin-family networks (btc, ltc, doge) read from CHAINS_CONFIG. */
  UTXO_NETWORKS: ChainsConfig['utxo'];
  /** Live Monero (xmr) read from CHAINS_CONFIG, or null. */
  MONERO_NETWORK: ChainsConfig['monero'];
}

/** Settings that may carry a password in their URL (shown with it hidden), and settings that are secrets outright. */
const URL_SETTINGS = new Set(['DATABASE_URL', 'SMTP_URL', 'RATES_BASE_URL']);
const SECRET_SETTINGS = new Set(['SECRETS_KEY', 'RATES_API_KEY', 'METRICS_TOKEN']);

/**
 * Parses the environment once. A bad value throws one line naming the variable, which main prints before exiting.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked = Object.fromEntries(
    Object.keys(configSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = configSchema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const got = String(picked[name] ?? '');
    // Never echo a secret: a URL's password is hidden, a key is not shown at all.
    const shown = SECRET_SETTINGS.has(name) ? '(hidden)' : `"${URL_SETTINGS.has(name) ? redactDatabaseUrl(got) : got}"`;
    throw new ConfigError(`Invalid configuration: ${name}: ${issue?.message ?? 'invalid'} (got ${shown})`);
  }
  const c = parsed.data;
  let minAmounts: Record<string, string> = {};
  if (c.MIN_AMOUNTS_USD) {
    const m = z.record(z.string(), z.string().regex(/^\d+(\.\d+)?$/)).safeParse(safeJson(c.MIN_AMOUNTS_USD));
    if (!m.success)
      throw new ConfigError('Invalid configuration: MIN_AMOUNTS_USD: must be a JSON object like {"BTC":"5"}');
    minAmounts = Object.fromEntries(Object.entries(m.data).map(([k, v]) => [k.toUpperCase(), v]));
  }
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST}:${c.PORT}`).replace(
    /\/+$/,
    '',
  );
  if (c.SMTP_URL && !c.MAIL_FROM)
    throw new ConfigError('Invalid configuration: MAIL_FROM: required with SMTP_URL (the From of every mail)');
  let networks: ChainsConfig = { evm: [], utxo: [], monero: null };
  if (c.CHAINS_CONFIG) {
    try {
      networks = readChainsConfig(c.CHAINS_CONFIG, shippedAssets);
    } catch (e) {
      if (e instanceof ChainsConfigError) throw new ConfigError(`Invalid configuration: CHAINS_CONFIG: ${e.message}`);
      throw e;
    }
  }
  return {
    ...c,
    PUBLIC_URL: publicUrl,
    PUBLIC_URL_SET: c.PUBLIC_URL !== undefined,
    MIN_AMOUNTS_USD: minAmounts,
    EVM_NETWORKS: networks.evm,
    UTXO_NETWORKS: networks.utxo,
    MONERO_NETWORK: networks.monero,
  };
}

/**
 * Without PUBLIC_URL, links default to http://HOST:PORT, which behind a proxy or in a container (0.0.0.0) is an
 * address no customer can open: fine for trying test mode, never for live payments.
 */
export function publicUrlRequired(why: string): string {
  return (
    `Invalid configuration: PUBLIC_URL: required for live payments (${why}): set it to the https origin ` +
    'customers reach, e.g. https://pay.example.com; hosted-page and status links are built on it'
  );
}

/**
 * A database URL with its password hidden, for messages, even when the URL does not parse (a password with `/` or
 * `@` pasted in unencoded): everything between the user's `:` and the last `@` is the password.
 *
 * @example
 * redactDatabaseUrl('postgres://shop:a/b+c=@db:5432/shop') // 'postgres://shop:***@db:5432/shop'
 */
export function redactDatabaseUrl(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)(.*)(@[^@]*)$/i.exec(url);
  return m ? `${m[1]}***${m[3]}` : url;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
