import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../store/dialect.js';
import type { Database } from '../store/schema.js';
import { type Keyring, sealedKeyId } from './keyring.js';
import { contextOf, type SecretTable, secretColumns } from './secret-columns.js';

/*
 * The secret columns as stored (sealed or, in a store from before encryption at rest, in the clear), read and
 * written past the store's SecretColumns plugin: for start-up checks, sealing old values and rotating the key.
 */

/** Each table's primary key: how one stored secret is written back. */
const rowKeys: Record<SecretTable, readonly string[]> = {
  merchants: ['id'],
  merchant_xpubs: ['merchant_id', 'chain'],
  dashboard_two_factor: ['user_id'],
  dropin_settings: ['key'],
};

type RawDb = Kysely<Record<string, Record<string, string | null>>>;

export interface StoredSecret {
  table: SecretTable;
  key: Record<string, string>;
  stored: string;
}

function raw(db: Kysely<Database>): RawDb {
  return db.withoutPlugins() as unknown as RawDb;
}

/** Every stored secret of every secret column (nulls, e.g. an EVM key's `view_key`, left out). */
export async function listStoredSecrets(db: Kysely<Database>): Promise<StoredSecret[]> {
  const out: StoredSecret[] = [];
  for (const table of Object.keys(secretColumns) as SecretTable[]) {
    const column = secretColumns[table];
    const rows = await raw(db)
      .selectFrom(table)
      .select([...rowKeys[table], column])
      .where(column, 'is not', null)
      .execute();
    for (const r of rows) {
      const key = Object.fromEntries(rowKeys[table].map((k) => [k, String(r[k])]));
      out.push({ table, key, stored: String(r[column]) });
    }
  }
  return out;
}

/** Writes one secret as given (already sealed), in the caller's transaction. */
export async function writeStoredSecret(db: Kysely<Database>, s: StoredSecret): Promise<void> {
  let q = raw(db)
    .updateTable(s.table)
    .set({ [secretColumns[s.table]]: s.stored });
  for (const [k, v] of Object.entries(s.key)) q = q.where(k, '=', v);
  await q.execute();
}

/** The distinct key ids sealing the stored secrets (more than one only after an interrupted hand edit). */
export function keyIdsOf(secrets: readonly StoredSecret[]): string[] {
  return [...new Set(secrets.flatMap((s) => sealedKeyId(s.stored) ?? []))];
}

/**
 * Re-seals every stored secret under `to`: values sealed under `from` are opened first, values in the clear are
 * sealed as they are. One transaction: a failure leaves every value as it was. Returns how many were written.
 * On SQLite the WAL is then truncated, so the values replaced survive neither there nor (secure_delete, see
 * core/store/db.ts) in freed space of the file.
 */
export async function resealAll(db: Kysely<Database>, from: Keyring | null, to: Keyring): Promise<number> {
  const n = await db.transaction().execute(async (trx) => {
    const all = await listStoredSecrets(trx);
    let n = 0;
    for (const s of all) {
      const context = contextOf(s.table);
      const sealed = sealedKeyId(s.stored) !== null;
      if (sealed && !from) continue;
      const plain = sealed && from ? from.open(s.stored, context) : s.stored;
      await writeStoredSecret(trx, { ...s, stored: to.seal(plain, context) });
      n++;
    }
    return n;
  });
  if (n > 0 && !isPostgres(db)) await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  return n;
}
