/** The few merchant API calls the provider makes (docs: the service's OpenAPI document at /api/v1/openapi.json). */

export class ServiceApiError extends Error {
  override name = 'ServiceApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string[]>,
  ) {
    super(message);
  }
}

export interface ServiceClient {
  call(method: 'GET' | 'POST', path: string, body?: string, idempotencyKey?: string): Promise<Record<string, unknown>>;
}

/** `sk_` key in X-API-Key, JSON in and out; a failure becomes a ServiceApiError carrying the API's field errors. */
export function serviceClient(apiBase: string, secretKey: string, timeoutMs = 15_000): ServiceClient {
  return {
    async call(method, path, body, idempotencyKey) {
      const headers: Record<string, string> = { 'x-api-key': secretKey, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
      let res: Response;
      try {
        res = await fetch(`${apiBase}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        throw new ServiceApiError(0, `crypto payment service unreachable: ${e instanceof Error ? e.message : e}`, {});
      }
      const text = await res.text();
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // A proxy's HTML error page: the status says enough.
      }
      if (!res.ok) {
        const errors = (json.errors && typeof json.errors === 'object' ? json.errors : {}) as Record<string, string[]>;
        const message = typeof json.message === 'string' ? json.message : `HTTP ${res.status}`;
        throw new ServiceApiError(res.status, message, errors);
      }
      return (json.data ?? {}) as Record<string, unknown>;
    },
  };
}
