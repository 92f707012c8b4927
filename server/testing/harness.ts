import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Clock } from '../../core/clock.js';
import { type CreatedMerchant, createMerchant } from '../../core/merchants/merchants.js';
import { loadConfig } from '../config.js';
import { buildService, type Service, type ServiceOverrides } from '../service.js';
import { freshStoreUrl } from './store.js';

export interface TestService {
  url: string;
  service: Service;
  merchant: CreatedMerchant;
  /** Calls the real server over HTTP with the test merchant's secret key (override with headers). */
  api(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string>; key?: string | null }): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  json: any;
}

/**
 * Starts the real service (real store, real HTTP server on port 0) with a test-mode merchant. Background timers
 * are started only when `start` is true, so tests that drive time by hand stay deterministic.
 */
export async function startTestService(
  opts: { env?: Record<string, string>; clock?: Clock; start?: boolean; overrides?: ServiceOverrides; mode?: 'test' | 'live'; webhookUrl?: string } = {},
): Promise<TestService> {
  const store = await freshStoreUrl();
  const config = loadConfig({ DATABASE_URL: store.url, LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '0', PORT: '0', ...opts.env });
  const service = await buildService(config, { ...opts.overrides, ...(opts.clock ? { clock: opts.clock } : {}) });
  const server = serve({ fetch: service.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  // PUBLIC_URL is only known once the port is: patch the settings the app reads it from.
  if (!opts.env?.PUBLIC_URL) service.deps.settings.publicUrl = url;
  const merchant = await createMerchant(service.deps.db, service.deps.clock, { name: 'Test shop', mode: opts.mode ?? 'test', webhookUrl: opts.webhookUrl ?? null });
  if (opts.start) service.start();

  const api: TestService['api'] = async (path, init = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.key !== null) headers['x-api-key'] = init.key ?? merchant.secret_key;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${url}${path}`, { method: init.method ?? (body ? 'POST' : 'GET'), headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };

  return {
    url,
    service,
    merchant,
    api,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.stop();
      await store.dispose();
    },
  };
}
