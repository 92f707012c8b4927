/**
 * The scale benchmark's target: the real service on DATABASE_URL, its store seeded with bulk SQL (not the API) with
 * SCALE_PAYMENTS payments of one merchant (70% finished, each with a confirmed deposit, its event, a delivered
 * webhook and its attempt; the rest expired, waiting or partially paid), balance totals to match, and
 * SCALE_PENDING pending webhook deliveries. Measures the webhook claim query in-process (it takes leases, so no HTTP
 * route runs it), then serves. Prints `READY {json}`.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { sql } from 'kysely';
import { createMerchant } from '../core/merchants/merchants.js';
import { claimDue } from '../core/webhooks/leases.js';
import { loadConfig } from '../server/config.js';
import { buildService } from '../server/service.js';
import { median } from './stats.js';

const N = Number(process.env.SCALE_PAYMENTS ?? '1000');
const PENDING = Number(process.env.SCALE_PENDING ?? '100000');
const DAY = 86_400_000;

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent', PORT: '0' });
  const service = await buildService(config);
  const { db, clock, dialect } = service.deps;
  const m = await createMerchant(db, clock, { name: 'Scale', mode: 'test', webhookUrl: 'http://127.0.0.1:9/hook' });
  const now = Date.now();
  const t0 = performance.now();

  // Rows are numbered 0..n-1 by a generated series: generate_series on PostgreSQL, a recursive CTE on SQLite.
  const series = (n: number, body: string) =>
    dialect === 'postgres'
      ? `${body.replace('FROM seq', `FROM generate_series(0, ${n - 1}) AS seq(i)`)}`
      : `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n - 1}) ${body}`;
  const pad = (e: string) => (dialect === 'postgres' ? `lpad((${e})::text, 8, '0')` : `printf('%08d', ${e})`);
  const mer = `'${m.merchant_id}'`;
  const status = `CASE WHEN i % 10 <= 6 THEN 'finished' WHEN i % 10 = 7 THEN 'expired' WHEN i % 10 = 8 THEN 'waiting' ELSE 'partially_paid' END`;
  const asset = `CASE i % 4 WHEN 0 THEN 'BTC' WHEN 1 THEN 'ETH' WHEN 2 THEN 'LTC' ELSE 'USDTERC20' END`;
  const network = `CASE i % 4 WHEN 0 THEN 'btc' WHEN 1 THEN 'eth' WHEN 2 THEN 'ltc' ELSE 'eth' END`;
  const decimals = `CASE i % 4 WHEN 0 THEN 8 WHEN 1 THEN 18 WHEN 2 THEN 8 ELSE 6 END`;
  // Created evenly over the last year, newest last.
  const created = `(${now - 365 * DAY} + CAST(i AS BIGINT) * ${Math.floor((365 * DAY) / N)})`;
  const paid = 'i % 10 <= 6 OR i % 10 = 9';
  const run = (text: string) => sql.raw(text).execute(db);

  await run(
    series(
      N,
      `INSERT INTO payments (id, invoice_id, purchase_id, merchant_id, mode, kind, status, status_detail, sequence,
        price_amount, price_currency, pay_currency, network, decimals, precision, pay_amount_units, actually_paid_units,
        rate, pay_address, extra_id, address_index, smart_contract, customer_name, customer_email, order_id,
        order_description, success_url, cancel_url, ipn_callback_url, origin_ip, is_fixed_rate, is_fee_paid_by_user,
        time_limit, created_at, updated_at, expires_at, valid_until, confirmed_at)
      SELECT 'pay_s' || ${pad('i')}, 'inv_s' || ${pad('i')}, 'pur_s' || ${pad('i')}, ${mer}, 'test', 'direct', ${status},
        'none', 3, '25.00', 'USD', ${asset}, ${network}, ${decimals}, ${decimals}, '123456',
        CASE WHEN ${paid} THEN '123456' ELSE '0' END, '1', 'scale-' || ${network} || '-' || ${pad('i')}, NULL, i, NULL,
        NULL, 'buyer' || CAST(i AS TEXT) || '@example.com', 'order-' || CAST(i AS TEXT), NULL, NULL, NULL, NULL, NULL,
        0, 0, 1200, ${created}, ${created}, ${created} + 1200000, ${created} + 2100000,
        CASE WHEN i % 10 <= 6 THEN ${created} + 600000 ELSE NULL END
      FROM seq`,
    ),
  );
  await run(
    series(
      N,
      `INSERT INTO deposits (id, payment_id, network, txid, log_index, asset, amount_units, block_height, block_hash,
        first_seen_at, late, removed, updated_at)
      SELECT 'dep_s' || ${pad('i')}, 'pay_s' || ${pad('i')}, CASE i % 4 WHEN 0 THEN 'sandbox:btc' WHEN 2 THEN 'sandbox:ltc' ELSE 'sandbox:eth' END,
        ${pad('i')}, 0, ${asset}, '123456', 10, 'h', ${created}, 0, 0, ${created} + 600000
      FROM seq WHERE ${paid}`,
    ),
  );
  await run(
    series(
      N,
      `INSERT INTO payment_events (id, payment_id, merchant_id, sequence, status, payload, created_at)
      SELECT 'evt_s' || ${pad('i')}, 'pay_s' || ${pad('i')}, ${mer}, 3, ${status}, '{"bench":true}', ${created} + 600000
      FROM seq WHERE ${paid}`,
    ),
  );
  await run(
    series(
      N,
      `INSERT INTO webhook_deliveries (id, event_id, merchant_id, payment_id, sequence, kind, payload, status, attempts,
        schedule_step, next_attempt_at, lease_owner, lease_until, last_status_code, last_error, created_at, updated_at,
        delivered_at)
      SELECT 'dlv_s' || ${pad('i')}, 'evt_s' || ${pad('i')}, ${mer}, 'pay_s' || ${pad('i')}, 3, 'payment', '{"bench":true}',
        'succeeded', 1, 0, NULL, NULL, NULL, 200, NULL, ${created} + 600000, ${created} + 600100, ${created} + 600100
      FROM seq WHERE ${paid}`,
    ),
  );
  await run(
    series(
      N,
      `INSERT INTO webhook_attempts (delivery_id, attempt_no, url, started_at, duration_ms, status_code, error,
        response_excerpt, next_attempt_at)
      SELECT 'dlv_s' || ${pad('i')}, 1, 'http://127.0.0.1:9/hook', ${created} + 600000, 100, 200, NULL, NULL, NULL
      FROM seq WHERE ${paid}`,
    ),
  );
  // The balance totals the service would have kept (core/payments/balance-totals.ts).
  await run(
    series(
      N,
      `INSERT INTO balance_shares (payment_id, asset, confirmed_units, confirmed_late_units, pending_units, counted_units)
      SELECT 'pay_s' || ${pad('i')}, ${asset}, '123456', '0', '0', '123456' FROM seq WHERE ${paid}`,
    ),
  );
  await run(
    `INSERT INTO merchant_balances (merchant_id, asset, amount_units, pending_units, updated_at)
     SELECT ${mer}, asset, CAST(SUM(CAST(counted_units AS BIGINT)) AS TEXT), '0', ${now}
     FROM balance_shares GROUP BY asset`,
  );
  // The outbox backlog: pending deliveries, all due, oldest first.
  await run(
    series(
      PENDING,
      `INSERT INTO webhook_deliveries (id, event_id, merchant_id, payment_id, sequence, kind, payload, status, attempts,
        schedule_step, next_attempt_at, lease_owner, lease_until, last_status_code, last_error, created_at, updated_at,
        delivered_at)
      SELECT 'dlv_p' || ${pad('i')}, 'evt_p' || ${pad('i')}, ${mer}, NULL, NULL, 'payment', '{"bench":true}', 'pending',
        0, 0, ${now - 3_600_000} + i, NULL, NULL, NULL, NULL, ${now - 3_600_000} + i, ${now - 3_600_000} + i, NULL
      FROM seq`,
    ),
  );
  // A store that grew over years has had its maintenance: table statistics for the planner, and on PostgreSQL
  // vacuumed pages (hint bits and visibility set, as autovacuum leaves them) and a checkpoint; on SQLite the bulk
  // load's WAL checkpointed (a WAL of a million rows that nothing checkpointed yet makes every read search it, and
  // tripled POST /payments in the first measurement).
  if (dialect === 'postgres') {
    await sql`vacuum analyze`.execute(db);
    await sql`checkpoint`.execute(db);
  } else {
    await sql`analyze`.execute(db);
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
  }
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;

  // The dispatcher's claim: 50 rows for one endpoint per call, as a pass with 16 slots per lane asks for (a lease
  // taken makes the next call read on past it, as a busy dispatcher would).
  const claimTimes: number[] = [];
  for (let k = 0; k < 220; k++) {
    const c0 = performance.now();
    const r = await claimDue(db, dialect, {
      owner: 'bench',
      now: Date.now(),
      leaseMs: 3_600_000,
      limit: 50,
      allowance: () => 50,
      skipMerchants: [],
    });
    if (k >= 20) claimTimes.push(performance.now() - c0);
    if (r.claimed.length !== 50) throw new Error(`claim returned ${r.claimed.length} rows`);
  }

  const server = serve({ fetch: service.app.fetch, hostname: '127.0.0.1', port: 0 }, () => {
    const port = (server.address() as AddressInfo).port;
    process.stdout.write(
      `READY ${JSON.stringify({
        port,
        key: m.secret_key,
        paymentId: `pay_s${String(Math.floor(N / 2)).padStart(8, '0')}`,
        seedSeconds,
        claimMs: Math.round(median(claimTimes) * 1000) / 1000,
      })}\n`,
    );
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
process.once('SIGTERM', () => process.exit(0));
