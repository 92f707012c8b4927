/**
 * The dashboard benchmark's target: the real service on DATABASE_URL with one test merchant holding 100,000
 * payments (created over 100 days, mixed statuses and assets, finished and partially paid ones with a paid amount for
 * the overview's sums, every 100th with a deposit) and an owner to sign in as.
 * Prints `READY {json}` when listening.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { sql } from 'kysely';
import { newId } from '../core/ids.js';
import { createMerchant } from '../core/merchants/merchants.js';
import { insertDeposit } from '../core/payments/deposits.js';
import type { Payment } from '../core/payments/payment.js';
import type { PaymentStatus } from '../core/payments/status.js';
import { insertPayment } from '../core/payments/store.js';
import { addUser } from '../core/users/accounts.js';
import { loadConfig } from '../server/config.js';
import { buildService } from '../server/service.js';

const COUNT = Number(process.env.SEED_PAYMENTS ?? '100000');
const STATUSES: PaymentStatus[] = [
  'waiting',
  'expired',
  'expired',
  'finished',
  'finished',
  'finished',
  'confirming',
  'partially_paid',
];
const ASSETS = [
  ['BTC', 'btc', 8],
  ['ETH', 'eth', 18],
  ['USDTERC20', 'eth', 6],
  ['LTC', 'ltc', 8],
] as const;

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent', PORT: '0' });
  const service = await buildService(config);
  const { db, clock } = service.deps;
  const m = await createMerchant(db, clock, { name: 'Bench', mode: 'test' });
  await addUser(service.deps, {
    merchantId: m.merchant_id,
    email: 'bench@example.com',
    role: 'owner',
    password: 'bench password 1',
  });
  const now = Date.now();
  let middlePayment = '';
  const span = 100 * 86_400_000;
  for (let start = 0; start < COUNT; start += 2000) {
    await db.transaction().execute(async (trx) => {
      for (let b = start; b < Math.min(COUNT, start + 2000); b += 250) {
        const batch: Payment[] = [];
        for (let i = b; i < Math.min(COUNT, b + 250); i++) {
          const [code, network, decimals] = ASSETS[i % ASSETS.length] as (typeof ASSETS)[number];
          const created = now - span + Math.floor((i * span) / COUNT);
          const status = STATUSES[i % STATUSES.length] as PaymentStatus;
          batch.push({
            id: newId('pay'),
            invoice_id: newId('inv'),
            purchase_id: newId('pur'),
            merchant_id: m.merchant_id,
            mode: 'test',
            kind: 'direct',
            status,
            status_detail: 'none',
            sequence: 1,
            price_amount: String(5 + (i % 500)),
            price_currency: 'USD',
            pay_currency: code,
            network,
            decimals,
            precision: decimals,
            pay_amount_units: '123456',
            actually_paid_units: status === 'finished' ? '123456' : status === 'partially_paid' ? '1234' : '0',
            rate: '1',
            pay_address: `addr-${network}-${i}`,
            extra_id: null,
            address_index: i,
            smart_contract: null,
            customer_name: null,
            customer_email: `buyer${i}@example.com`,
            order_id: `order-${i}`,
            order_description: null,
            success_url: null,
            cancel_url: null,
            ipn_callback_url: null,
            origin_ip: null,
            is_fixed_rate: 0,
            is_fee_paid_by_user: 0,
            time_limit: 1200,
            created_at: created,
            updated_at: created,
            expires_at: created + 1_200_000,
            valid_until: created + 2_100_000,
            confirmed_at: null,
          });
        }
        await insertPayment(trx, batch);
        const middle = batch.find((p) => p.address_index === Math.floor(COUNT / 2));
        if (middle) middlePayment = middle.id;
        for (const p of batch.filter((_, k) => (b + k) % 100 === 0)) {
          await insertDeposit(trx, {
            id: newId('dep'),
            payment_id: p.id,
            network: p.network,
            txid: (p.address_index ?? 0).toString(16).padStart(64, '0'),
            log_index: 0,
            asset: p.pay_currency,
            amount_units: '123456',
            block_height: 10,
            block_hash: 'h',
            first_seen_at: p.created_at,
            late: 0,
            removed: 0,
            updated_at: p.created_at,
          });
        }
      }
    });
  }
  // Both stores plan by table statistics: gather them as autovacuum (or a long-running SQLite) would have. On
  // PostgreSQL autovacuum also vacuums an insert-only table (13+), which sets the visibility map that index-only
  // scans (the overview's covering index, migration 0013) rely on.
  await sql`analyze`.execute(db);
  if (service.deps.dialect === 'postgres') await sql`vacuum analyze payments`.execute(db);
  service.start();
  const server = serve({ fetch: service.app.fetch, hostname: '127.0.0.1', port: 0 }, () => {
    const port = (server.address() as AddressInfo).port;
    process.stdout.write(
      `READY ${JSON.stringify({ port, merchantId: m.merchant_id, orderId: `order-${Math.floor(COUNT / 2)}`, paymentId: middlePayment, email: `Buyer${Math.floor(COUNT / 2)}@example.com`, txid: (5000).toString(16).padStart(64, '0') })}\n`,
    );
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
process.once('SIGTERM', () => process.exit(0));
