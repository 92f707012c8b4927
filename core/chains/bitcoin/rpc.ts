import { readFile } from 'node:fs/promises';
import { parseExactJson } from './exact-json.js';

/** How the node knows us: `rpcuser`/`rpcpassword` (or `rpcauth`), or the cookie file the node writes at start. */
export type BitcoinRpcAuth = { user: string; password: string } | { cookieFile: string };

export interface BitcoinRpcOptions {
  /** http(s) URL of the node's RPC, without credentials (a wallet path such as `/wallet/name` is fine). */
  url: string;
  auth: BitcoinRpcAuth;
  /** Per request, body included. @default 10000 */
  timeoutMs?: number;
  /** Names the node in error messages, never the URL: `RPC of ltc: ...`. @default 'bitcoin' */
  label?: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** The node answered, with a JSON-RPC error: `code` is Bitcoin Core's (-5 no such transaction, -8 bad parameter...). */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Bitcoin Core's error codes the chain source reacts to (src/rpc/protocol.h). */
export const RPC_INVALID_ADDRESS_OR_KEY = -5;
export const RPC_INVALID_PARAMETER = -8;

export interface RpcCall {
  method: string;
  params?: unknown[] | Record<string, unknown>;
}

export type RpcOutcome<T = unknown> = { ok: true; value: T } | { ok: false; error: RpcError };

interface Envelope {
  result?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
  id?: unknown;
}

/**
 * A Bitcoin Core JSON-RPC client (Litecoin Core and Dogecoin Core speak the same protocol) over fetch. Answers are
 * parsed with `parseExactJson`, so amounts arrive as exact decimal text. Failures never carry the URL (hosted nodes
 * put API keys in it), the user name or the password: they read `RPC of <label>: <method>: <what went wrong>`.
 */
export class BitcoinRpc {
  private readonly url: string;
  private readonly label: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;
  private authorization: string | null = null;
  private nextId = 1;

  constructor(private readonly opts: BitcoinRpcOptions) {
    let parsed: URL;
    try {
      parsed = new URL(opts.url);
    } catch {
      throw new TypeError(`RPC of ${opts.label ?? 'bitcoin'}: the RPC URL is not a valid URL`);
    }
    // fetch refuses URLs with credentials, and a URL is too easily logged: they belong in `auth`.
    if (parsed.username || parsed.password)
      throw new TypeError(`RPC of ${opts.label ?? 'bitcoin'}: put credentials in rpcUser/rpcPassword, not in the URL`);
    this.url = opts.url;
    this.label = opts.label ?? 'bitcoin';
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.fetch = opts.fetch ?? globalThis.fetch;
  }

  /**
   * One call. Resolves with the result, rejects with `RpcError` when the node refuses the call, or with an Error
   * naming the transport failure (unreachable, timed out, authentication failed, HTTP status).
   *
   * @example
   * const info = await rpc.call<{ chain: string; blocks: number }>('getblockchaininfo');
   */
  async call<T = unknown>(method: string, params: RpcCall['params'] = []): Promise<T> {
    const id = this.nextId++;
    const body = await this.post(method, { jsonrpc: '1.0', id, method, params });
    const outcome = this.outcome<T>(method, body);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /**
   * Several calls in one HTTP request (JSON-RPC batch): a mempool poll fetches hundreds of transactions at the cost
   * of one round trip. Each call succeeds or fails on its own; the transport failing rejects the whole batch.
   *
   * @example
   * const [a, b] = await rpc.batch([{ method: 'getrawtransaction', params: [txid, true] }, ...]);
   */
  async batch<T = unknown>(calls: readonly RpcCall[]): Promise<RpcOutcome<T>[]> {
    if (calls.length === 0) return [];
    const first = this.nextId;
    this.nextId += calls.length;
    const what = `batch of ${calls.length} (${calls[0]?.method ?? ''}...)`;
    const body = await this.post(
      what,
      calls.map((c, i) => ({ jsonrpc: '1.0', id: first + i, method: c.method, params: c.params ?? [] })),
    );
    if (!Array.isArray(body)) throw new Error(`RPC of ${this.label}: ${what}: the answer is not a batch`);
    const byId = new Map<unknown, unknown>();
    for (const item of body) byId.set((item as Envelope | null)?.id, item);
    return calls.map((c, i) => {
      const item = byId.get(first + i);
      if (item === undefined) throw new Error(`RPC of ${this.label}: ${what}: no answer for call ${i}`);
      return this.outcome<T>(c.method, item);
    });
  }

  private outcome<T>(method: string, body: unknown): RpcOutcome<T> {
    const env = body as Envelope | null;
    if (env === null || typeof env !== 'object' || Array.isArray(env))
      throw new Error(`RPC of ${this.label}: ${method}: the answer is not a JSON-RPC response`);
    if (env.error) {
      const code = typeof env.error.code === 'number' ? env.error.code : 0;
      const message = typeof env.error.message === 'string' ? env.error.message : 'unknown error';
      return { ok: false, error: new RpcError(method, code, `RPC of ${this.label}: ${method}: ${message} (${code})`) };
    }
    return { ok: true, value: env.result as T };
  }

  private async post(what: string, payload: unknown, retried = false): Promise<unknown> {
    const authorization = await this.authorizationHeader(what);
    let res: Response;
    let text: string;
    try {
      res = await this.fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (e) {
      throw new Error(`RPC of ${this.label}: ${what}: ${transportFailure(e, this.timeoutMs)}`);
    }
    if (res.status === 401) {
      // The node writes a new cookie each time it starts: read it again once before calling the credentials wrong.
      if ('cookieFile' in this.opts.auth && !retried) {
        this.authorization = null;
        return this.post(what, payload, true);
      }
      const where = 'cookieFile' in this.opts.auth ? 'cookieFile' : 'rpcUser/rpcPassword';
      throw new Error(`RPC of ${this.label}: ${what}: authentication failed (HTTP 401), check ${where}`);
    }
    // Bitcoin Core answers JSON-RPC errors with 404/500 and a JSON body; anything else without one is the transport's.
    let body: unknown;
    try {
      body = parseExactJson(text);
    } catch {
      throw new Error(`RPC of ${this.label}: ${what}: HTTP ${res.status} without a JSON-RPC answer`);
    }
    return body;
  }

  private async authorizationHeader(what: string): Promise<string> {
    if (this.authorization) return this.authorization;
    const { auth } = this.opts;
    let pair: string;
    if ('cookieFile' in auth) {
      try {
        pair = (await readFile(auth.cookieFile, 'utf8')).trim();
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
        throw new Error(`RPC of ${this.label}: ${what}: cannot read the cookie file (${code})`);
      }
    } else {
      pair = `${auth.user}:${auth.password}`;
    }
    this.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
    return this.authorization;
  }
}

/** What failed, from fetch's error, without its message: undici's messages and causes quote the host and port. */
function transportFailure(e: unknown, timeoutMs: number): string {
  const name = e instanceof Error ? e.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const cause = e instanceof Error ? (e.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : null;
  return code ? `cannot reach the node (${code})` : 'cannot reach the node';
}
