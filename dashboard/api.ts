import { signal } from '@preact/signals';

/** A failed call, with the service's own message (it says what to fix) and per-field messages of a 422. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

let csrfToken = '';
/** The session's CSRF token, sent in X-CSRF-Token on every change. */
export function setCsrf(token: string): void {
  csrfToken = token;
}

/** Set when a call found the session gone (expired, signed out elsewhere): the app shows the sign-in form. */
export const sessionLost = signal<string | null>(null);

/**
 * Calls the dashboard API (`/dashboard/api{path}`): the cookie goes by itself, the CSRF token on changes. Failures
 * throw ApiError; a 401 on anything but signing in also sets `sessionLost`.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/dashboard/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  } catch {
    throw new ApiError('Cannot reach the service; check your connection and try again', 0);
  }
  const json: { success?: boolean; message?: string; data?: unknown; errors?: Record<string, string[]> } = await res
    .json()
    .catch(() => ({}));
  if (!res.ok || json.success !== true) {
    const message = json.message ?? `HTTP ${res.status}`;
    if (res.status === 401 && !(path === '/session' && method === 'POST')) sessionLost.value = message;
    throw new ApiError(message, res.status, json.errors ?? {});
  }
  return json.data as T;
}

/** `/merchants/{id}{rest}`. */
export const m = (merchantId: string, rest: string) => `/merchants/${encodeURIComponent(merchantId)}${rest}`;
