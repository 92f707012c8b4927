import type { Server } from 'node:http';
import type { Clock } from '../../core/clock.js';
import { type CreatedMerchant, createMerchant } from '../../core/merchants/merchants.js';
import { loadConfig } from '../config.js';
import { createHttpServer, listen, serveApp } from '../http-server.js';
import { buildService, type Service, type ServiceOverrides } from '../service.js';
import { checkApiResponse } from './openapi-check.js';
import { freshStoreUrl } from './store.js';

export interface TestService {
  url: string;
  /** The Node server itself, for tests that watch what reaches it (its 'request' events: methods, URLs). */
  server: Server;
  service: Service;
  merchant: CreatedMerchant;
  /**
   * Calls the real server over HTTP with the test merchant's secret key (override with headers). Answers of /api/v1
   * are checked against the OpenAPI document: one that does not fit it throws.
   */
  api(
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string>; key?: string | null },
  ): Promise<ApiResponse>;
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
  opts: {
    env?: Record<string, string>;
    clock?: Clock;
    start?: boolean;
    overrides?: ServiceOverrides;
    mode?: 'test' | 'live';
    webhookUrl?: string;
    /**
     * The address browsers use instead of the server's own (PUBLIC_URL), given the port the server listens on: a
     * proxy started in front of it (bench/phone.ts puts a slow network there). Default: the server's address.
     */
    publicUrl?: (port: number) => Promise<string>;
  } = {},
): Promise<TestService> {
  const store = await freshStoreUrl();
  // The server listens first, so the service is built knowing its own address (PUBLIC_URL), as in production.
  const defaults = loadConfig({});
  const server = createHttpServer({
    headersTimeoutMs: Number(opts.env?.HEADERS_TIMEOUT_MS ?? defaults.HEADERS_TIMEOUT_MS),
    requestTimeoutMs: Number(opts.env?.REQUEST_TIMEOUT_MS ?? defaults.REQUEST_TIMEOUT_MS),
    keepAliveTimeoutMs: Number(opts.env?.KEEP_ALIVE_TIMEOUT_MS ?? defaults.KEEP_ALIVE_TIMEOUT_MS),
  });
  const port = await listen(server, 0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATABASE_URL: store.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: '0',
    PORT: String(port),
    PUBLIC_URL: opts.publicUrl ? await opts.publicUrl(port) : url,
    ...opts.env,
  });
  const service = await buildService(config, { ...opts.overrides, ...(opts.clock ? { clock: opts.clock } : {}) });
  serveApp(server, service.app);
  const merchant = await createMerchant(service.deps.db, service.deps.clock, {
    name: 'Test shop',
    mode: opts.mode ?? 'test',
    webhookUrl: opts.webhookUrl ?? null,
  });
  if (opts.start) service.start();

  const api: TestService['api'] = async (path, init = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.key !== null) headers['x-api-key'] = init.key ?? merchant.secret_key;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const method = init.method ?? (body ? 'POST' : 'GET');
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    // Every answer of /api/v1 must be what the OpenAPI document says (a mismatch fails the calling test).
    checkApiResponse(method, path, res.status, json, res.headers);
    return { status: res.status, headers: res.headers, text, json };
  };

  return {
    url,
    server,
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
