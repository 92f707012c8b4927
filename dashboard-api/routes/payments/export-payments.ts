import type { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { z } from 'zod';
import { readQuery } from '../../../api-kit/body.js';
import { fromUnits, usdToCents } from '../../../core/money/decimal.js';
import { centsText } from '../../../core/payments/figures.js';
import { listPayments } from '../../../core/payments/store.js';
import { refundedByPayment } from '../../../core/refunds/refunded-totals.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { paymentRowView } from '../../views.js';
import { filterOf, paymentFilterShape } from './list-payments.js';

/** The payment list's filters and order (list-payments.ts): the export is the filtered list, every page of it. */
export const exportQuerySchema = z.strictObject(paymentFilterShape);

const COLUMNS = [
  'payment_id',
  'created_at',
  'payment_status',
  'status_detail',
  'price_amount',
  'price_currency',
  'pay_amount',
  'pay_currency',
  'actually_paid',
  'refunded',
  'network',
  'pay_address',
  'extra_id',
  'order_id',
  'customer_email',
  'confirmed_at',
] as const;

/**
 * A CSV field: quoted, quotes doubled; a value a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR)
 * gets a leading `'`, since order ids and e-mail addresses come from customers.
 */
export function csvField(v: string | number | null): string {
  const s = v === null ? '' : String(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * GET /merchants/{id}/exports/payments.csv?from=&to=&status=&asset=&q=&sort=: the merchant's payments the list shows
 * with the same filters, in its order, exact amounts as text, streamed page by page (a large range never sits in
 * memory whole).
 */
export function registerExportPayments(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/exports/payments.csv', (c) => {
    const q = readQuery(c, exportQuerySchema);
    const merchant = c.get('merchant');
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    c.header('content-type', 'text/csv; charset=utf-8');
    c.header(
      'content-disposition',
      `attachment; filename="payments-${merchant.id}-${q.from === undefined ? 'start' : day(q.from)}-${q.to === undefined ? day(x.deps.clock.now()) : day(q.to - 1)}.csv"`,
    );
    c.header('cache-control', 'no-store');
    return stream(c, async (s) => {
      await s.write(`${COLUMNS.join(',')}\r\n`);
      let cursor: string | undefined;
      do {
        const page = await listPayments(x.deps.db, merchant.id, { ...filterOf(q), limit: 500, cursor });
        const refunded = await refundedByPayment(
          x.deps.db,
          page.payments.map((p) => p.id),
        );
        const lines = page.payments.map((p) => {
          // USD with its two decimals (`42.50`), as money is written: the stored text drops trailing zeros. What its
          // refunds returned is in the paid asset, exact digits like actually_paid.
          const row = {
            ...paymentRowView(p),
            price_amount: centsText(usdToCents(p.price_amount) ?? 0n),
            refunded: fromUnits(refunded.get(p.id) ?? 0n, p.decimals),
          };
          return COLUMNS.map((k) => csvField(row[k])).join(',');
        });
        if (lines.length > 0) await s.write(`${lines.join('\r\n')}\r\n`);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined && !s.aborted);
    });
  });
}
