import { randomBytes, randomUUID } from 'node:crypto';

// Crockford base32: no I, L, O, U, so ids read aloud and copied by hand survive.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** An unguessable id with a readable prefix: `newId('pay')` -> "pay_7k2m...". 20 chars = 100 bits of randomness. */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[(bytes[i] as number) & 31];
  return `${prefix}_${out}`;
}

export function uuid(): string {
  return randomUUID();
}

/** A random token for secrets (keys, webhook secrets): base62-like, `bytes` of entropy. */
export function secretToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
