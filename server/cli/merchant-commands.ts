import { z } from 'zod';
import { iso } from '../../core/clock.js';
import {
  allowedOrigins,
  createMerchant,
  deactivateKey,
  getMerchant,
  listKeys,
  listMerchants,
  rotateKey,
  updateMerchant,
} from '../../core/merchants/merchants.js';
import { fiatCode, fiatCodes } from '../../core/money/fiat.js';
import { webhookUrlProblem } from '../../core/webhooks/address-guard.js';
import { type Command, UsageError } from './command.js';
import { check, print } from './output.js';

/** Live URLs must be https and public now; the webhook dispatcher checks again at every connect (DNS can change). */
async function refuseUnsafeWebhook(url: string, mode: 'test' | 'live'): Promise<void> {
  const problem = await webhookUrlProblem(url, mode);
  if (problem) throw new UsageError(`--webhook-url: ${problem}`);
}

const originSchema = z.string().regex(/^https?:\/\/[^/\s]+$/, 'an origin is scheme://host[:port], without a path');
const urlSchema = z.url({ protocol: /^https?$/ });

export const merchantCommands: Command[] = [
  {
    name: 'merchant create',
    summary:
      'Creates a merchant with a secret key (sk_), a public drop-in key (dk_) and a webhook secret. Keys are printed once.',
    options: {
      name: { type: 'string', description: 'Display name', required: true },
      mode: { type: 'string', description: 'test (sandbox chain, fixed rates) or live', required: true },
      'webhook-url': { type: 'string', description: 'Where payment.updated webhooks go' },
      'allowed-origin': {
        type: 'string',
        multiple: true,
        description: 'Origin allowed to use the drop-in (https://shop.example)',
      },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    async run(ctx, v) {
      const mode = check(z.enum(['test', 'live']), v.mode, 'mode');
      const name = check(z.string().min(1).max(200), v.name, 'name');
      const webhookUrl = v['webhook-url'] === undefined ? null : check(urlSchema, v['webhook-url'], 'webhook-url');
      if (webhookUrl) await refuseUnsafeWebhook(webhookUrl, mode);
      const origins = ((v['allowed-origin'] as string[] | undefined) ?? []).map((o) =>
        check(originSchema, o, 'allowed-origin'),
      );
      const created = await createMerchant(ctx.db, ctx.clock, { name, mode, webhookUrl, allowedOrigins: origins });
      print(
        v.json === true,
        ctx.out,
        created,
        [
          `merchant_id     ${created.merchant_id}`,
          `sub_partner_id  ${created.sub_partner_id}`,
          `mode            ${created.mode}`,
          `secret_key      ${created.secret_key}`,
          `public_key      ${created.public_key}`,
          `webhook_secret  ${created.webhook_secret}`,
          'Keys are shown once and stored only as hashes.',
        ].join('\n'),
      );
    },
  },
  {
    name: 'merchant list',
    summary: 'Lists merchants (no secrets).',
    options: { json: { type: 'boolean', description: 'Print JSON' } },
    async run(ctx, v) {
      const rows = (await listMerchants(ctx.db)).map((m) => ({
        merchant_id: m.id,
        sub_partner_id: m.sub_partner_id,
        name: m.name,
        mode: m.mode,
        webhook_url: m.webhook_url,
        webhook_enabled: m.webhook_enabled === 1,
        allowed_origins: allowedOrigins(m),
        default_currency: m.default_currency,
        active: m.active === 1,
        created_at: iso(m.created_at),
      }));
      print(
        v.json === true,
        ctx.out,
        rows,
        rows.map((r) => `${r.merchant_id}  ${r.mode}  ${r.name}  webhook=${r.webhook_url ?? '-'}`).join('\n') ||
          '(no merchants)',
      );
    },
  },
  {
    name: 'merchant update',
    summary: "Sets a merchant's webhook URL, allowed drop-in origins, underpaid tolerance or default price currency.",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      'webhook-url': { type: 'string', description: 'New webhook URL' },
      'clear-webhook-url': { type: 'boolean', description: 'Remove the webhook URL' },
      'allowed-origin': { type: 'string', multiple: true, description: 'Replaces the allowed origins' },
      'clear-allowed-origins': { type: 'boolean', description: 'Remove every allowed origin' },
      currency: {
        type: 'string',
        description: 'Default price currency, an ISO 4217 code such as EUR (USD unless set; any of the rate source)',
      },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const id = String(v.merchant);
      const patch: Parameters<typeof updateMerchant>[3] = {};
      if (v['webhook-url'] !== undefined) {
        const url = check(urlSchema, v['webhook-url'], 'webhook-url');
        const current = await getMerchant(ctx.db, id);
        if (current) await refuseUnsafeWebhook(url, current.mode);
        patch.webhookUrl = url;
      }
      if (v['clear-webhook-url']) patch.webhookUrl = null;
      if (v['allowed-origin'] !== undefined)
        patch.allowedOrigins = (v['allowed-origin'] as string[]).map((o) => check(originSchema, o, 'allowed-origin'));
      if (v['clear-allowed-origins']) patch.allowedOrigins = [];
      if (v.currency !== undefined) {
        const code = fiatCode(String(v.currency));
        if (!code) throw new UsageError(`--currency: not a supported currency; one of ${fiatCodes.join(', ')}`);
        patch.defaultCurrency = code;
      }
      if (Object.keys(patch).length === 0)
        throw new UsageError('nothing to update: pass --webhook-url, --allowed-origin, --currency, ...');
      await updateMerchant(ctx.db, ctx.clock, id, patch);
      const m = await getMerchant(ctx.db, id);
      print(
        v.json === true,
        ctx.out,
        {
          merchant_id: id,
          webhook_url: m?.webhook_url ?? null,
          allowed_origins: m ? allowedOrigins(m) : [],
          default_currency: m?.default_currency ?? null,
        },
        `updated ${id}`,
      );
    },
  },
  {
    name: 'key rotate',
    summary: 'Issues a new key of a kind and deactivates the previous one at once. The new key is printed once.',
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      kind: { type: 'string', description: 'secret (sk_) or public (dk_)', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const kind = check(z.enum(['secret', 'public']), v.kind, 'kind');
      const key = await rotateKey(ctx.db, ctx.clock, String(v.merchant), kind);
      print(v.json === true, ctx.out, { merchant_id: v.merchant, kind, key }, key);
    },
  },
  {
    name: 'key deactivate',
    summary: 'Deactivates one key; requests with it get 401 at once.',
    options: {
      key: { type: 'string', description: 'The whole key (sk_... or dk_...)' },
      id: { type: 'string', description: 'The key id (key_...) from `key list`' },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const target = (v.id ?? v.key) as string | undefined;
      if (!target) throw new UsageError('pass --key or --id');
      const done = await deactivateKey(ctx.db, ctx.clock, target);
      if (!done) throw new UsageError('no active key matched');
      print(v.json === true, ctx.out, { deactivated: true }, 'deactivated');
    },
  },
  {
    name: 'key list',
    summary: "Lists a merchant's keys by id and prefix (never the keys themselves).",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      json: { type: 'boolean', description: 'Print JSON' },
    },
    async run(ctx, v) {
      const keys = (await listKeys(ctx.db, String(v.merchant))).map((k) => ({ ...k, active: k.active === 1 }));
      print(
        v.json === true,
        ctx.out,
        keys,
        keys.map((k) => `${k.id}  ${k.kind}  ${k.prefix}...  ${k.active ? 'active' : 'inactive'}`).join('\n'),
      );
    },
  },
];
