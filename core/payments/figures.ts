import { type Kysely, sql } from 'kysely';
import { fromUnits } from '../money/decimal.js';
import { isPostgres } from '../store/dialect.js';
import type { Database } from '../store/schema.js';
import { type PaymentStatus, paymentStatuses } from './status.js';
import { priceCentsSql } from './store.js';

/*
 * A merchant's figures for the dashboard's overview, summed by the store (never a sample): what was received per
 * asset, what it sold in USD, payments by status, and the daily volume of the last 30 days (UTC days).
 *
 * Received follows the balance rule (balance-totals.ts): the paid amount of payments that are finished or
 * partially paid. Sold is the USD price of finished payments priced in USD: the price is exact USD (cents) as
 * quoted, while a partial payment, or one priced in another currency, has no exact USD figure, so it counts in its
 * asset only.
 */

const DAY_MS = 86_400_000;
export const FIGURE_DAYS = 30;
const RECEIVED = new Set<string>(['finished', 'partially_paid']);

export interface PeriodFigures {
  /** First instant counted (the start of a UTC day). */
  from: number;
  /** Per asset, base units. */
  received: Map<string, bigint>;
  soldCents: bigint;
  byStatus: Record<PaymentStatus, number>;
  payments: number;
}

export interface Figures {
  /** today, 7 days, 30 days (each including today). */
  periods: { today: PeriodFigures; days7: PeriodFigures; days30: PeriodFigures };
  /** Oldest first, FIGURE_DAYS entries. */
  daily: { day: number; soldCents: bigint; received: number; payments: number }[];
}

/**
 * One grouped read of the last 30 days over the index payments_merchant_created_figures (migration 0013), which
 * holds every column it reads.
 */
export async function merchantFigures(db: Kysely<Database>, merchantId: string, now: number): Promise<Figures> {
  const today = Math.floor(now / DAY_MS);
  const from = (today - (FIGURE_DAYS - 1)) * DAY_MS;
  const u = sql.ref('actually_paid_units');
  const cents = priceCentsSql(db);
  const pg = isPostgres(db);
  const received = sql`status in ('finished', 'partially_paid')`;
  // PostgreSQL sums exact numerics; SQLite has none, so base units (wider than 64 bits for wei) are summed in two
  // integer parts, above and below 10^12, joined below in bigint. Rows not received add nothing to either.
  const units = pg
    ? { high: sql`0`, low: sql`case when ${received} then cast(${u} as numeric) else 0 end` }
    : {
        high: sql`case when ${received} and length(${u}) > 12 then cast(substr(${u}, 1, length(${u}) - 12) as bigint) else 0 end`,
        low: sql`case when ${received} then cast(case when length(${u}) > 12 then substr(${u}, length(${u}) - 11) else ${u} end as bigint) else 0 end`,
      };
  const query = (q: Kysely<Database>) =>
    q
      .selectFrom('payments')
      .select([
        sql<number | string>`created_at / ${sql.lit(DAY_MS)}`.as('day'),
        'status',
        'pay_currency',
        sql<number | string>`count(*)`.as('n'),
        sql<number | string | null>`sum(${units.high})`.as('high'),
        sql<number | string | null>`sum(${units.low})`.as('low'),
        // Sold is a USD figure: a price in another currency (migration 0019) counts in its asset only.
        sql<
          number | string | null
        >`sum(case when status = 'finished' and price_currency = 'USD' then ${cents} else 0 end)`.as('cents'),
      ])
      .where('merchant_id', '=', merchantId)
      .where('created_at', '>=', from)
      .groupBy([sql`created_at / ${sql.lit(DAY_MS)}`, 'status', 'pay_currency'])
      .execute();
  const rows = await query(db);

  const period = (days: number): PeriodFigures => ({
    from: (today - (days - 1)) * DAY_MS,
    received: new Map(),
    soldCents: 0n,
    byStatus: Object.fromEntries(paymentStatuses.map((s) => [s, 0])) as Record<PaymentStatus, number>,
    payments: 0,
  });
  const periods = { today: period(1), days7: period(7), days30: period(30) };
  const daily = Array.from({ length: FIGURE_DAYS }, (_, i) => ({
    day: (today - (FIGURE_DAYS - 1) + i) * DAY_MS,
    soldCents: 0n,
    received: 0,
    payments: 0,
  }));
  for (const r of rows) {
    const dayIndex = Number(r.day) - (today - (FIGURE_DAYS - 1));
    const n = Number(r.n);
    const units = BigInt(String(r.high ?? 0)) * 10n ** 12n + BigInt(String(r.low ?? 0).replace(/\.0*$/, ''));
    const sold = BigInt(String(r.cents ?? 0));
    const isReceived = RECEIVED.has(r.status);
    const slot = daily[dayIndex];
    if (slot) {
      slot.payments += n;
      slot.soldCents += sold;
      if (isReceived) slot.received += n;
    }
    for (const p of [periods.today, periods.days7, periods.days30]) {
      if (Number(r.day) * DAY_MS < p.from) continue;
      p.payments += n;
      p.soldCents += sold;
      if (r.status in p.byStatus) p.byStatus[r.status as PaymentStatus] += n;
      if (isReceived) p.received.set(r.pay_currency, (p.received.get(r.pay_currency) ?? 0n) + units);
    }
  }
  return { periods, daily };
}

/** Cents as exact USD text with two decimals ("1234.50"). */
export function centsText(cents: bigint): string {
  const s = fromUnits(cents, 2);
  const [i, f = ''] = s.split('.');
  return `${i}.${f.padEnd(2, '0')}`;
}
