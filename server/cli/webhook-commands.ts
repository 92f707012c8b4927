import { z } from 'zod';
import { isoOrNull } from '../../core/clock.js';
import { generateWebhookSecret } from '../../core/merchants/keys.js';
import { getMerchant, updateMerchant } from '../../core/merchants/merchants.js';
import {
  deliveryStatuses,
  enableEndpoint,
  listDeliveries,
  merchantOfDelivery,
  redeliver,
} from '../../core/webhooks/deliveries.js';
import { deliveryView } from '../../core/webhooks/delivery-view.js';
import { sendTestEvent } from '../../core/webhooks/test-event.js';
import { type Command, UsageError } from './command.js';
import { check, print } from './output.js';

async function requireMerchant(db: Parameters<typeof getMerchant>[0], id: string) {
  const m = await getMerchant(db, id);
  if (!m) throw new UsageError(`--merchant: no merchant ${id}`);
  return m;
}

/**
 * Webhook operations for operators. They write to the store only; a running service picks the work up on its
 * next outbox poll (WEBHOOK_POLL_MS), so they work whether or not the service is up.
 */
export const webhookCommands: Command[] = [
  {
    name: 'webhook deliveries',
    summary:
      "Lists a merchant's webhook deliveries, newest first, with every attempt (response code, duration, error).",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      payment: { type: 'string', description: 'Only deliveries of this payment_id' },
      status: { type: 'string', description: `Only this status: ${deliveryStatuses.join(', ')}` },
      limit: { type: 'string', description: 'At most this many (default 20)' },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const m = await requireMerchant(ctx.db, String(v.merchant));
      const status = v.status === undefined ? undefined : check(z.enum(deliveryStatuses), v.status, 'status');
      const limit = v.limit === undefined ? 20 : check(z.coerce.number().int().min(1).max(500), v.limit, 'limit');
      const page = await listDeliveries(ctx.db, m.id, { paymentId: v.payment as string | undefined, status, limit });
      const rows = page.deliveries.map((d) => deliveryView(d, d.attempt_log));
      const lines = rows.flatMap((r) => [
        `${r.delivery_id}  ${r.status.padEnd(9)}  ${r.payment_id ?? 'test event'}  seq=${r.sequence ?? '-'}  attempts=${r.attempt_count}  last=${r.last_response_code ?? r.last_error ?? '-'}`,
        ...r.attempts.map(
          (a) =>
            `    #${a.attempt} ${a.started_at}  ${a.response_code ?? '---'}  ${a.duration_ms} ms${a.error ? `  ${a.error}` : ''}`,
        ),
      ]);
      print(v.json === true, ctx.out, rows, lines.length === 0 ? '(no deliveries)' : lines.join('\n'));
    },
  },
  {
    name: 'webhook redeliver',
    summary: 'Sends a delivery again now, with the same delivery id and a fresh timestamp and signature.',
    options: {
      delivery: { type: 'string', description: 'delivery_id (dlv_...)', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const id = String(v.delivery);
      const merchantId = await merchantOfDelivery(ctx.db, id);
      if (!merchantId) throw new UsageError(`--delivery: no delivery ${id}`);
      const d = await redeliver(ctx.db, merchantId, id, ctx.clock.now());
      print(
        v.json === true,
        ctx.out,
        {
          delivery_id: id,
          status: d?.status,
          next_attempt_at: isoOrNull(d?.next_attempt_at ?? null),
        },
        `${id} queued for redelivery`,
      );
    },
  },
  {
    name: 'webhook test',
    summary: "Queues a signed test payment.updated (with test: true) to the merchant's webhook URL.",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const m = await requireMerchant(ctx.db, String(v.merchant));
      if (!m.webhook_url)
        throw new UsageError('this merchant has no webhook URL; set one with `merchant update --webhook-url URL`');
      const d = await sendTestEvent(ctx.db, m.id, ctx.clock.now());
      print(
        v.json === true,
        ctx.out,
        { delivery_id: d.id, event_id: d.event_id, url: m.webhook_url },
        `test event ${d.id} queued for ${m.webhook_url}`,
      );
    },
  },
  {
    name: 'webhook rotate-secret',
    summary:
      'Issues a new webhook signing secret (printed once); every attempt from now on, retries included, is signed with it.',
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const m = await requireMerchant(ctx.db, String(v.merchant));
      const secret = generateWebhookSecret();
      await updateMerchant(ctx.db, ctx.clock, m.id, { webhookSecret: secret });
      print(v.json === true, ctx.out, { merchant_id: m.id, webhook_secret: secret }, secret);
    },
  },
  {
    name: 'webhook enable',
    summary: 'Re-enables a webhook endpoint disabled after it answered 410 Gone; held deliveries go out at once.',
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const m = await requireMerchant(ctx.db, String(v.merchant));
      await enableEndpoint(ctx.db, m.id, ctx.clock.now());
      print(
        v.json === true,
        ctx.out,
        { merchant_id: m.id, webhook_url: m.webhook_url, enabled: true },
        `webhook endpoint of ${m.id} enabled`,
      );
    },
  },
];
