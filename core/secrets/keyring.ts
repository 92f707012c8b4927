import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/*
 * Envelope encryption of the secrets the service must read back (webhook signing secrets, TOTP secrets, Monero
 * view keys, the hosted-page signing secret): AES-256-GCM from `node:crypto` with a random 96-bit nonce per value.
 * A stored value reads `enc1:<key id>:<base64url(nonce | ciphertext | tag)>`. The key id is a fingerprint of the
 * key, so a store tells which key sealed each value (rotation, and "wrong key" told apart from "tampered").
 * The associated data names the table and column, so a value copied into another column does not open.
 */

const PREFIX = 'enc1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const SEALED = /^enc1:([0-9a-f]{8}):([A-Za-z0-9_-]+)$/;

/** A key problem the operator fixes (wrong, missing or malformed key): printed as one line at start-up. */
export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

/** Whether a stored value is sealed (else it is a value from before encryption at rest, in the clear). */
export function isSealed(stored: string): boolean {
  return SEALED.test(stored);
}

/** The key id a sealed value names, or null for a value in the clear. */
export function sealedKeyId(stored: string): string | null {
  return SEALED.exec(stored)?.[1] ?? null;
}

/**
 * Reads a key as written by `openssl rand -base64 32` or `openssl rand -hex 32` (surrounding white space ignored).
 * `name` is the variable or file the text came from, for the one-line error.
 */
export function parseKey(text: string, name: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t)
    ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(t)
      ? Buffer.from(t, 'base64')
      : null;
  if (key?.length !== 32)
    throw new SecretsKeyError(`${name}: must be a 32-byte key, as base64 or 64 hex digits (openssl rand -base64 32)`);
  return key;
}

/** A new random key as base64, what `admin secrets rotate-key` and the generated key file hold. */
export function newKeyText(): string {
  return randomBytes(32).toString('base64');
}

/** One AES-256-GCM key and its id (a fingerprint, not the key: SHA-256 of a label and the key, 8 hex digits). */
export class Keyring {
  readonly id: string;
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new SecretsKeyError('a secrets key is 32 bytes');
    this.#key = Buffer.from(key);
    this.id = createHash('sha256').update('crypto-payments secrets key id\0').update(key).digest('hex').slice(0, 8);
  }

  /**
   * Seals `plain` for the column named by `context` (e.g. `merchants.webhook_secret`).
   * @example keyring.seal('whsec_...', 'merchants.webhook_secret') // 'enc1:3f2a9c01:...'
   */
  seal(plain: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}:${this.id}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** Opens a value sealed by `seal` with this key; throws SecretsKeyError for another key's value or a forged one. */
  open(stored: string, context: string): string {
    const m = SEALED.exec(stored);
    if (!m) throw new SecretsKeyError(`${context}: not a sealed value`);
    if (m[1] !== this.id)
      throw new SecretsKeyError(`${context}: sealed under secrets key ${m[1]}, but the configured key is ${this.id}`);
    const raw = Buffer.from(m[2] ?? '', 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretsKeyError(`${context}: a sealed value is truncated`);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretsKeyError(`${context}: a sealed value does not open with key ${this.id} (altered in the store)`);
    }
  }
}
