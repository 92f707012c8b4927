import { BackupError, backupSqlite, restoreSqlite } from '../../core/store/sqlite-backup.js';
import { type Command, UsageError } from './command.js';

/** The SQLite file of a `sqlite:` DATABASE_URL; PostgreSQL has its own tools (README: Backups). */
function sqliteFile(databaseUrl: string, verb: string): string {
  if (!databaseUrl.startsWith('sqlite:')) {
    throw new UsageError(`${verb} works on a SQLite store; for PostgreSQL use pg_dump / pg_restore (README: Backups)`);
  }
  return databaseUrl.slice('sqlite:'.length);
}

export const backupCommands: Command[] = [
  {
    name: 'backup',
    summary: 'Copies the SQLite store, safely while the service runs (online backup API), to a new file.',
    options: { to: { type: 'string', description: 'the backup file to create', required: true } },
    async standalone({ databaseUrl, out }, v) {
      const file = sqliteFile(databaseUrl, 'backup');
      const r = await backupSqlite(file, String(v.to)).catch(rethrow);
      out(`Backed up ${file} to ${v.to} (${r.pages} pages, integrity ok)`);
    },
  },
  {
    name: 'restore',
    summary: 'Replaces the SQLite store with a backup; refused while any process has the store open.',
    options: { from: { type: 'string', description: 'the backup file', required: true } },
    async standalone({ databaseUrl, out }, v) {
      const file = sqliteFile(databaseUrl, 'restore');
      const r = await restoreSqlite(String(v.from), file).catch(rethrow);
      out(`Restored ${file} from ${v.from} (${r.pages} pages)`);
    },
  },
];

/** A refused backup or restore is the operator's to fix: reported like a usage problem, without a stack. */
function rethrow(e: unknown): never {
  if (e instanceof BackupError) throw new Error(e.message);
  throw e;
}
