import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Dashboard passwords, hashed with scrypt from node:crypto (RFC 7914). Parameters: N = 2^15, r = 8, p = 3, a 16-byte
 * random salt, a 32-byte key: one of OWASP's equivalent scrypt settings (32 MiB of memory per hash, about three
 * times the work of p = 1). They are stored with each hash (`scrypt$N$r$p$salt$hash`), so they can be raised
 * later without breaking existing passwords. scrypt runs on libuv's thread pool, never on the event loop.
 */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 3, keyLength: 32, saltBytes: 16 } as const;

/** Longest password accepted (bytes are what scrypt hashes; a bound keeps a huge one from costing more). */
export const MAX_PASSWORD_LENGTH = 256;
export const MIN_PASSWORD_LENGTH = 10;

function derive(password: string, salt: Buffer, n: number, r: number, p: number, length: number): Promise<Buffer> {
  // maxmem must exceed 128 * N * r (32 MiB here): Node's default is exactly 32 MiB.
  const options: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, options, (e, key) => (e ? reject(e) : resolve(key))),
  );
}

/**
 * The stored form of a password.
 *
 * @example await hashPassword('correct horse battery') // 'scrypt$32768$8$3$<salt>$<hash>'
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltBytes);
  const key = await derive(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` matches `stored`, compared in constant time. A missing or malformed hash still costs one
 * derivation (against a fixed dummy), so an unknown e-mail address answers no faster than a wrong password.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  const [scheme, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) {
    await derive(password, DUMMY_SALT, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p), expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const DUMMY_SALT = Buffer.alloc(SCRYPT.saltBytes, 7);
