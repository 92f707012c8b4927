/** Whether `db` (or a transaction of it) runs on PostgreSQL, for the few statements SQLite has no form of. */
export function isPostgres(db: { getExecutor(): { readonly adapter: object } }): boolean {
  return db.getExecutor().adapter.constructor.name.startsWith('Postgres');
}
