import { addUser } from '../../core/users/accounts.js';
import type { Role } from '../../core/users/memberships.js';
import type { ApiResponse, TestService } from '../../server/testing/harness.js';

export const TEST_PASSWORD = 'correct horse battery';

/** A browser's view of the dashboard API: the session cookie it was given and the CSRF token it read. */
export interface DashClient {
  cookie: string;
  csrf: string;
  /** Calls /dashboard/api{path} with the cookie, and the CSRF token on changes unless `csrf` is null. */
  call(
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string>; csrf?: string | null },
  ): Promise<ApiResponse>;
}

/** Calls the dashboard API over real HTTP, with whatever cookie and headers a test gives. */
export async function dashFetch(
  url: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${url}/dashboard/api${path}`, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Signs in through POST /session as a browser would; throws when the service says no. */
export async function signIn(url: string, email: string, password = TEST_PASSWORD): Promise<DashClient> {
  const r = await dashFetch(url, '/session', { body: { email, password } });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf: string = r.json.data.csrf_token;
  return {
    cookie,
    csrf,
    call: (path, init = {}) => {
      const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
      const headers: Record<string, string> = { cookie, ...init.headers };
      const token = init.csrf === undefined ? csrf : init.csrf;
      if (method !== 'GET' && token !== null) headers['x-csrf-token'] = token;
      return dashFetch(url, path, { ...init, method, headers });
    },
  };
}

/** A dashboard user with a password and a role in `merchantId`, signed in. */
export async function userOf(t: TestService, merchantId: string, email: string, role: Role = 'owner') {
  await addUser(t.service.deps, { merchantId, email, role, password: TEST_PASSWORD });
  return signIn(t.url, email);
}
