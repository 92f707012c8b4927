import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Keyring, newKeyText, parseKey, SecretsKeyError } from './keyring.js';

/** The two ways an operator gives the key (server/config.ts parses them with the rest of the environment). */
export interface SecretsKeySettings {
  /** The key itself, base64 or hex (32 bytes). */
  SECRETS_KEY?: string | undefined;
  /** A file holding the key (a compose or Kubernetes secret, a read-only mount). */
  SECRETS_KEY_FILE?: string | undefined;
}

/** Where a key came from: the variable's name, or the default key file, for messages. */
export interface KeySource {
  keyring: Keyring;
  name: string;
  /** The default key file when neither variable is set (it may be created), else null. */
  defaultFile: string | null;
}

/**
 * The key file used when neither SECRETS_KEY nor SECRETS_KEY_FILE is set: beside a SQLite store
 * (`data/service.sqlite` -> `data/service.sqlite.key`), or `data/secrets.key` under the working directory for a
 * PostgreSQL store, so `npm start` on a fresh machine just works. Never inside the store, so neither a stolen store
 * nor its backups (`admin backup` copies the store file only) hold it.
 */
export function defaultKeyFile(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') return `${resolve(file)}.key`;
  }
  return resolve('data/secrets.key');
}

/** The configured key, or the default key file's when it exists; null when there is none yet. */
export function readKey(settings: SecretsKeySettings, databaseUrl: string): KeySource | null {
  if (settings.SECRETS_KEY && settings.SECRETS_KEY_FILE)
    throw new SecretsKeyError('SECRETS_KEY and SECRETS_KEY_FILE are both set: set one of them');
  if (settings.SECRETS_KEY)
    return {
      keyring: new Keyring(parseKey(settings.SECRETS_KEY, 'SECRETS_KEY')),
      name: 'SECRETS_KEY',
      defaultFile: null,
    };
  if (settings.SECRETS_KEY_FILE) {
    const file = settings.SECRETS_KEY_FILE;
    return { keyring: new Keyring(readKeyFile(file, 'SECRETS_KEY_FILE')), name: 'SECRETS_KEY_FILE', defaultFile: null };
  }
  const file = defaultKeyFile(databaseUrl);
  if (!existsSync(file)) return null;
  return { keyring: new Keyring(readKeyFile(file, file)), name: keyFileName(file), defaultFile: file };
}

export function keyFileName(file: string): string {
  return `the key file ${file} (SECRETS_KEY_FILE unset)`;
}

export function readKeyFile(file: string, name: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SecretsKeyError(`${name}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  return parseKey(text, name === file ? `key file ${file}` : `${name} (${file})`);
}

/**
 * Writes a new random key to `file` (mode 0600) unless one is there already, and returns the key the file holds:
 * written aside and hard-linked into place, so two processes starting together on one store end up with one key.
 */
export function createKeyFile(file: string): Buffer {
  const dir = dirname(file);
  const aside = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(aside, `${newKeyText()}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(aside, 0o600);
    try {
      linkSync(aside, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  } catch (e) {
    throw new SecretsKeyError(
      `cannot create the secrets key file ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)}): ` +
        'set SECRETS_KEY or SECRETS_KEY_FILE',
    );
  } finally {
    try {
      unlinkSync(aside);
    } catch {
      // never written
    }
  }
  return readKeyFile(file, file);
}
