import { signal } from '@preact/signals';
import type { Me, MerchantRef } from '../dashboard-api/view-types.js';
import { api, sessionLost, setCsrf } from './api.js';

export type { Me, MerchantRef };

/** Who is signed in: undefined while asking, null when nobody. */
export const me = signal<Me | null | undefined>(undefined);

function accept(m: Me): Me {
  setCsrf(m.csrf_token);
  sessionLost.value = null;
  me.value = m;
  return m;
}

export async function loadMe(): Promise<void> {
  try {
    const m = await api<Me | null>('/session');
    if (m) accept(m);
    else me.value = null;
  } catch {
    me.value = null;
  }
}

/** The password step: signed in, or (two-factor on) a pending sign-in that signInWithCode completes. */
export async function signIn(email: string, password: string): Promise<Me | { pendingToken: string }> {
  const r = await api<Me | { two_factor: { pending_token: string } }>('/session', { body: { email, password } });
  return 'two_factor' in r ? { pendingToken: r.two_factor.pending_token } : accept(r);
}

/** The second step: a code from the authenticator app, or a recovery code. */
export async function signInWithCode(pendingToken: string, code: string): Promise<Me> {
  return accept(await api<Me>('/session/two-factor', { body: { pending_token: pendingToken, code } }));
}

/** Updates what the page knows of the signed-in user after a change to their account or a merchant. */
export function updateMe(change: (m: Me) => Me): void {
  if (me.value) me.value = change(me.value);
}

export async function signOut(): Promise<void> {
  try {
    await api('/session', { method: 'DELETE' });
  } finally {
    setCsrf('');
    me.value = null;
  }
}

/** The signed-in user's membership in a merchant, if any. */
export function membership(merchantId: string): MerchantRef | undefined {
  return me.value?.merchants.find((x) => x.merchant_id === merchantId);
}
