import type { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { readQuery } from '../../../api-kit/body.js';
import { listAudit } from '../../../core/audit/audit-log.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { csvField } from '../payments/export-payments.js';
import { auditQuerySchema, auditView } from './list-audit.js';

const COLUMNS = ['at', 'actor', 'action', 'target', 'details', 'client_address'] as const;

/**
 * GET /merchants/{id}/exports/audit.csv: the audit entries the page's filters select, newest first, as CSV (cells a
 * spreadsheet would run as formulas are escaped as in the payments export), streamed page by page.
 */
export function registerExportAudit(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/exports/audit.csv', (c) => {
    const { limit: _limit, cursor: _cursor, ...filter } = readQuery(c, auditQuerySchema);
    const merchant = c.get('merchant');
    c.header('content-type', 'text/csv; charset=utf-8');
    c.header('content-disposition', `attachment; filename="audit-${merchant.id}.csv"`);
    c.header('cache-control', 'no-store');
    return stream(c, async (s) => {
      await s.write(`${COLUMNS.join(',')}\r\n`);
      let cursor: string | undefined;
      do {
        const page = await listAudit(x.deps.db, merchant.id, { ...filter, limit: 500, cursor });
        const lines = page.rows.map((e) => {
          const v = auditView(e);
          const row = { ...v, details: JSON.stringify(v.details) };
          return COLUMNS.map((k) => csvField(row[k])).join(',');
        });
        if (lines.length > 0) await s.write(`${lines.join('\r\n')}\r\n`);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined && !s.aborted);
    });
  });
}
