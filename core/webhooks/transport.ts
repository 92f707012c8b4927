import http from 'node:http';
import https from 'node:https';
import { checkTargetUrl, guardedLookup, type Resolver, systemResolver } from './address-guard.js';

export interface PostResult {
  /** HTTP status, or null when no response came (refused, timeout, connection error). */
  statusCode: number | null;
  retryAfter: string | undefined;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export interface TransportOptions {
  /** Whole-request budget: connect, send, and the receiver's answer. @default 10000 */
  timeoutMs?: number;
  /** Host name resolver used at connect time (the SSRF check runs on what it returns). @default system DNS */
  resolver?: Resolver;
  /** Sockets kept per receiver host. @default 64 */
  maxSocketsPerHost?: number;
}

const EXCERPT_BYTES = 512;

/**
 * POSTs webhooks over node:http(s) with keep-alive agents. Each mode has its own agents: a socket opened for a
 * test-mode endpoint (loopback allowed) must never be reused for a live-mode request to the same host.
 */
export class WebhookTransport {
  private readonly timeoutMs: number;
  private readonly agents: Record<'test' | 'live', { http: http.Agent; https: https.Agent }>;

  constructor(opts: TransportOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    const resolver = opts.resolver ?? systemResolver;
    const make = (mode: 'test' | 'live') => {
      const common = {
        keepAlive: true,
        maxSockets: opts.maxSocketsPerHost ?? 64,
        lookup: guardedLookup(mode, resolver) as never,
      };
      return { http: new http.Agent(common), https: new https.Agent(common) };
    };
    this.agents = { test: make('test'), live: make('live') };
  }

  post(target: string, mode: 'test' | 'live', headers: Record<string, string>, body: string): Promise<PostResult> {
    const started = performance.now();
    const done = (r: Omit<PostResult, 'durationMs'>): PostResult => ({
      ...r,
      durationMs: Math.round(performance.now() - started),
    });
    let url: URL;
    try {
      url = new URL(target);
      checkTargetUrl(url, mode);
    } catch (e) {
      return Promise.resolve(
        done({
          statusCode: null,
          retryAfter: undefined,
          error: `refused: ${e instanceof Error ? e.message : String(e)}`,
          responseExcerpt: null,
        }),
      );
    }
    const secure = url.protocol === 'https:';
    const lib = secure ? https : http;
    const agent = secure ? this.agents[mode].https : this.agents[mode].http;
    return new Promise<PostResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<PostResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      const req = lib.request(
        url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < EXCERPT_BYTES) chunks.push(c);
            size += c.length;
          });
          res.on('end', () => {
            const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
            const ra = res.headers['retry-after'];
            finish({
              statusCode: res.statusCode ?? null,
              retryAfter: Array.isArray(ra) ? ra[0] : ra,
              error: null,
              responseExcerpt: excerpt || null,
            });
          });
          res.on('error', (e) =>
            finish({
              statusCode: res.statusCode ?? null,
              retryAfter: undefined,
              error: e.message,
              responseExcerpt: null,
            }),
          );
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`timed out after ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      req.on('error', (e) => {
        const refused = e.name === 'UnsafeTargetError' ? 'refused: ' : '';
        finish({ statusCode: null, retryAfter: undefined, error: `${refused}${e.message}`, responseExcerpt: null });
      });
      req.end(body);
    });
  }

  close(): void {
    for (const a of Object.values(this.agents)) {
      a.http.destroy();
      a.https.destroy();
    }
  }
}
