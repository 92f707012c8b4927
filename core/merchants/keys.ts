import { hash, timingSafeEqual } from 'node:crypto';
import { secretToken } from '../ids.js';

export type KeyKind = 'secret' | 'public';
export type Mode = 'test' | 'live';

const PREFIX: Record<KeyKind, string> = { secret: 'sk', public: 'dk' };

/** `sk_test_...` / `dk_live_...`: the prefix tells kind and mode at a glance; 32 random bytes follow. */
export function generateKey(kind: KeyKind, mode: Mode): string {
  return `${PREFIX[kind]}_${mode}_${secretToken(32)}`;
}

/** Keys carry 256 bits of entropy, so one SHA-256 is a sound at-rest hash (no stretching needed). */
export function hashKey(key: string): string {
  // One-shot SHA-256: on every authenticated request, about half the cost of createHash().update().digest().
  return hash('sha256', key, 'hex');
}

/** What may be shown of a key after creation: its kind, mode and first characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, 12);
}

export function keyKindOf(key: string): KeyKind | null {
  if (key.startsWith('sk_')) return 'secret';
  if (key.startsWith('dk_')) return 'public';
  return null;
}

/** Constant-time comparison of two hex hashes. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function generateWebhookSecret(): string {
  return `whsec_${secretToken(32)}`;
}
