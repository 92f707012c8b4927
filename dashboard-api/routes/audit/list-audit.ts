import type { Hono } from 'hono';
import { z } from 'zod';
import { readQuery } from '../../../api-kit/body.js';
import { ok } from '../../../api-kit/envelope.js';
import { emailSchema } from '../../../api-kit/schemas.js';
import { listAudit } from '../../../core/audit/audit-log.js';
import { isoOrNull } from '../../../core/clock.js';
import type { AuditLogTable } from '../../../core/store/schema.js';
import type { DashCtx, DashEnv } from '../../context.js';
import { rangeBoundSchema } from '../../params.js';

export const auditQuerySchema = z.strictObject({
  action: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]+)?$/, 'An action (key.rotate) or a group (key)')
    .max(40)
    .optional(),
  actor: emailSchema.optional(),
  from: rangeBoundSchema(false).optional(),
  to: rangeBoundSchema(true).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

/** An audit entry as the dashboard shows and exports it. */
export function auditView(e: AuditLogTable) {
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(e.details) as Record<string, unknown>;
  } catch {
    // Written by recordAudit only, always JSON; an unreadable row still lists.
  }
  return {
    id: e.id,
    at: isoOrNull(e.created_at) as string,
    // No user: the admin CLI, or the merchant API's secret key (core/payments exceptions resolved over the API).
    actor: e.actor_email ?? (details.via === 'api' ? 'API key' : 'admin CLI'),
    action: e.action,
    target: e.target,
    details,
    client_address: e.client_address,
  };
}

/**
 * GET /merchants/{id}/audit: who did what to this merchant and when, from where; newest first in keyset pages,
 * filtered by action or group (`key`), actor and time range. Owners and viewers alike may read it.
 */
export function registerListAudit(app: Hono<DashEnv>, x: DashCtx): void {
  app.get('/merchants/:merchant_id/audit', async (c) => {
    const q = readQuery(c, auditQuerySchema);
    const page = await listAudit(x.deps.db, c.get('merchant').id, q);
    return ok(c, auditPageView(page));
  });
}

function auditPageView(page: Awaited<ReturnType<typeof listAudit>>) {
  return { entries: page.rows.map(auditView), next_cursor: page.nextCursor };
}
export type AuditEntries = ReturnType<typeof auditPageView>;
