import { existsSync } from 'node:fs';
import type { Store } from '../store/db.js';
import { withStoreLock } from '../store/store-lock.js';
import {
  createKeyFile,
  defaultKeyFile,
  type KeySource,
  keyFileName,
  readKey,
  type SecretsKeySettings,
} from './key-source.js';
import { Keyring, SecretsKeyError, sealedKeyId } from './keyring.js';
import { contextOf } from './secret-columns.js';
import { keyIdsOf, listStoredSecrets, resealAll } from './stored-secrets.js';

export interface Unlocked {
  keyring: Keyring;
  /** Where the key came from (a variable, or the default key file). */
  source: KeySource;
  /** The key file this start created (no key was configured and the store held no sealed secret yet), or null. */
  createdKeyFile: string | null;
  /** Secrets found in the clear (a store from before encryption at rest) and sealed by this start. */
  sealedNow: number;
}

/**
 * Loads the store's secrets key and hands it to the store's SecretColumns plugin; run after migrating, before
 * anything reads a secret. Refuses with a SecretsKeyError (one line naming the variable) when the store holds
 * sealed secrets and the key is missing or is not theirs. With no key configured and nothing sealed yet, the
 * default key file (key-source.ts) is created. Secrets still in the clear are sealed, in one transaction.
 * Processes starting together on one SQLite store take turns through the store lock.
 */
export async function unlockStore(store: Store, settings: SecretsKeySettings, databaseUrl: string): Promise<Unlocked> {
  const run = () => unlockNow(store, settings, databaseUrl);
  return store.dialect === 'sqlite' ? withStoreLock(store.db, 'secrets', run) : run();
}

async function unlockNow(store: Store, settings: SecretsKeySettings, databaseUrl: string): Promise<Unlocked> {
  const stored = await listStoredSecrets(store.db);
  const ids = keyIdsOf(stored);
  let source = readKey(settings, databaseUrl);
  let createdKeyFile: string | null = null;
  if (!source) {
    const file = defaultKeyFile(databaseUrl);
    if (ids.length > 0)
      throw new SecretsKeyError(
        `SECRETS_KEY_FILE (or SECRETS_KEY) is not set and ${file} does not exist, but the store's secrets are ` +
          `encrypted (key ${ids.join(', ')}): give the key they were encrypted with`,
      );
    source = { keyring: new Keyring(createKeyFile(file)), name: keyFileName(file), defaultFile: file };
    createdKeyFile = file;
  }
  const { keyring, name } = source;
  const foreign = ids.filter((id) => id !== keyring.id);
  if (foreign.length > 0) {
    // `admin secrets rotate-key` with the default key file re-encrypts, then moves `.next` over the file.
    const next = source.defaultFile && existsSync(`${source.defaultFile}.next`) ? `${source.defaultFile}.next` : null;
    throw new SecretsKeyError(
      `${name}: not the key the store's secrets are encrypted with (theirs: key ${foreign.join(', ')}; this one: ` +
        `key ${keyring.id})${next ? `; an interrupted rotate-key left the new key in ${next}: move it into place` : ''}`,
    );
  }
  // The key ids match; one sealed value of each table must also open (one that does not was altered in the store).
  const checked = new Set<string>();
  for (const s of stored) {
    if (checked.has(s.table) || sealedKeyId(s.stored) === null) continue;
    keyring.open(s.stored, contextOf(s.table));
    checked.add(s.table);
  }
  const sealedNow = await resealAll(store.db, null, keyring);
  store.secrets.use(keyring);
  return { keyring, source, createdKeyFile, sealedNow };
}
