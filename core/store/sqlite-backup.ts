import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';

/** A backup or restore that cannot be done; the message says why and what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/**
 * Copies a SQLite store, live or not, with SQLite's online backup API: the copy is one consistent snapshot even
 * while the service writes (a file copy of a live WAL database can be torn). The copy is made self-contained
 * (rollback journal, no -wal file) and checked with `integrity_check` before this returns. It is readable by its owner
 * only (0600): it holds webhook secrets, TOTP secrets and Monero view keys.
 *
 * @example
 * await backupSqlite('/data/service.sqlite', '/backups/service-2026-11-25.sqlite') // { pages: 812 }
 */
export async function backupSqlite(file: string, to: string): Promise<{ pages: number }> {
  if (!existsSync(file)) throw new BackupError(`no SQLite store at ${file}`);
  if (existsSync(to)) throw new BackupError(`${to} already exists: choose a new file (a backup never overwrites)`);
  // Created empty with owner-only permissions before SQLite writes a page (an empty file is an empty database), so
  // the copy is never world-readable, not even for a moment, whatever the umask; `wx` also refuses a file made since.
  try {
    closeSync(openSync(to, 'wx', 0o600));
    chmodSync(to, 0o600);
  } catch (e) {
    throw new BackupError(`cannot create ${to}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const src = new SQLite(file, { fileMustExist: true });
  let pages = 0;
  try {
    src.pragma('busy_timeout = 5000');
    const r = await src.backup(to);
    pages = r.totalPages;
  } finally {
    src.close();
  }
  const copy = new SQLite(to);
  try {
    copy.pragma('journal_mode = DELETE');
    checkIntegrity(copy, to);
  } finally {
    copy.close();
  }
  return { pages };
}

/**
 * Replaces the SQLite store at `file` with the backup `from`, through the same backup API. Refused when `from` is
 * not a sound store of this service, and while any process (a running service, another CLI) has `file` open:
 * restoring under a running service would swap its data mid-write.
 */
export async function restoreSqlite(from: string, file: string): Promise<{ pages: number }> {
  if (!existsSync(from)) throw new BackupError(`no backup at ${from}`);
  if (resolve(from) === resolve(file)) throw new BackupError('the backup and the store are the same file');
  const src = new SQLite(from, { readonly: true, fileMustExist: true });
  try {
    checkIntegrity(src, from);
    const ours = src.prepare("select count(*) as n from sqlite_master where name = 'kysely_migration'").get() as {
      n: number;
    };
    if (ours.n !== 1) throw new BackupError(`${from} is not a store of this service (no migrations recorded)`);
    if (existsSync(file)) refuseIfInUse(file);
    const r = await src.backup(file);
    return { pages: r.totalPages };
  } finally {
    src.close();
  }
}

/** An exclusive lock is granted only while no other connection, in any process, has the database open (WAL). */
function refuseIfInUse(file: string): void {
  const probe = new SQLite(file, { fileMustExist: true });
  try {
    probe.pragma('busy_timeout = 0');
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('begin exclusive');
    probe.exec('commit');
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new BackupError(`the store ${file} is in use (a running service?): stop every process using it first`);
    }
    throw e;
  } finally {
    probe.close();
  }
}

function checkIntegrity(db: SQLite.Database, name: string): void {
  const result = db.pragma('integrity_check', { simple: true });
  if (result !== 'ok') throw new BackupError(`${name} fails integrity_check: ${String(result)}`);
}
