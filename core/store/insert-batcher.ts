import { toError } from '../errors.js';

interface Pending<Row> {
  row: Row;
  resolve: () => void;
  reject: (e: Error) => void;
}

/**
 * Group commit for a hot insert: rows queued while the previous batch is being written (or within the same
 * event-loop turn) go into one multi-row INSERT, so one commit (one WAL append on SQLite, one fsync on PostgreSQL)
 * serves many requests. Each caller's promise settles only once its row is committed. When a batch fails, its rows
 * are retried one by one so each caller gets its own outcome and one bad row never fails the others.
 */
export class InsertBatcher<Row> {
  private queue: Pending<Row>[] = [];
  private flushing = false;

  constructor(
    private readonly insertMany: (rows: Row[]) => Promise<void>,
    /** Rows per statement; bounded by the drivers' parameter limits (columns x rows). */
    private readonly maxRows = 200,
  ) {}

  insert(row: Row): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxRows);
      try {
        await this.insertMany(batch.map((p) => p.row));
        for (const p of batch) p.resolve();
      } catch (e) {
        if (batch.length === 1) {
          batch[0]?.reject(toError(e));
          continue;
        }
        for (const p of batch) {
          try {
            await this.insertMany([p.row]);
            p.resolve();
          } catch (e2) {
            p.reject(toError(e2));
          }
        }
      }
    }
    this.flushing = false;
  }
}
