import { signal } from '@preact/signals';
import { api, sessionLost, setCsrf } from './api.js';

export interface MerchantRef {
  merchant_id: string;
  name: string;
  mode: 'test' | 'live';
  role: 'owner' | 'viewer';
}

export interface Me {
  email: string;
  csrf_token: string;
  merchants: MerchantRef[];
}

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

export async function signIn(email: string, password: string): Promise<Me> {
  return accept(await api<Me>('/session', { body: { email, password } }));
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
