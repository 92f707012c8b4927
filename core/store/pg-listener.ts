import pg from 'pg';
import { type StoreChanges, type WatchedTable, watchedTables } from './changes.js';

/** The channel migration 0005's triggers notify, with the changed table's name as payload. */
export const CHANGES_CHANNEL = 'store_changes';
const RETRY_MS = 1000;

/**
 * Listens for other processes' writes on PostgreSQL (NOTIFY is sent at their commit) on a connection of its own.
 * Caches are trusted only while it listens: a lost connection turns them off until it is back, since the
 * notifications sent meanwhile are gone.
 */
export class PgChangeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly changes: StoreChanges,
    private readonly onLost: (e: Error) => void,
  ) {}

  /** Resolves once listening, or after a first failed attempt (retried in the background; caches stay off). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    this.changes.setWatching(false);
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    this.retry = null;
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (n) => {
      const table = n.payload as WatchedTable;
      if (watchedTables.includes(table)) this.changes.changed(table);
      else this.changes.changedAll();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (e) {
      client.end().catch(() => {});
      this.onLost(e instanceof Error ? e : new Error(String(e)));
      this.scheduleRetry();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.changes.setWatching(true);
  }

  private lost(client: pg.Client, e: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.changes.setWatching(false);
    this.onLost(e);
    client.end().catch(() => {});
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => void this.connect(), RETRY_MS);
    this.retry.unref();
  }
}
