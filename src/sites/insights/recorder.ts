import { perContext, type Context } from '../../context.js';
import type { InsightRow } from './events.js';
import { insertInsightEvents } from './queries.js';

/** Events waiting to be written: past this, new ones are dropped (and counted) rather than slow anything. */
const MAX_QUEUED = 10_000;
/** Rows per INSERT. */
const BATCH_SIZE = 500;
/** How long an event waits for others to be written with it. */
const FLUSH_DELAY_MS = 1000;

/**
 * What the reader records, written in batches after its answers are sent: a
 * bounded queue per app, flushed by a timer. A page view never waits on a
 * write; an instance that stops loses at most the last second's events.
 */
export class InsightsRecorder {
  private queue: InsightRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Rows still being made (waiting for the day's salt): a flush waits for them. */
  private readonly making = new Set<Promise<unknown>>();
  /** Events dropped since start: the queue was full, the recorder closed, or their batch could not be written. */
  dropped = 0;

  constructor(private readonly context: Context) {}

  record(row: InsightRow): void {
    if (this.closed || this.queue.length >= MAX_QUEUED) {
      this.dropped += 1;
      if (this.dropped % 1000 === 1)
        this.context.log.warn({ dropped: this.dropped }, 'site insights dropped events: the queue is full');
      return;
    }
    this.queue.push(row);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Queues the row `make` makes now; a row that cannot be made is dropped. */
  recordMade(make: () => InsightRow): void {
    let row: InsightRow;
    try {
      row = make();
    } catch (error) {
      this.couldNotMake(error);
      return;
    }
    this.record(row);
  }

  /** Queues the row once it is made; a row that cannot be made is dropped. */
  recordWhenMade(row: Promise<InsightRow>): void {
    const made = row.then(
      (made) => this.record(made),
      (error: unknown) => this.couldNotMake(error),
    );
    this.making.add(made);
    void made.finally(() => this.making.delete(made));
  }

  private couldNotMake(error: unknown): void {
    this.dropped += 1;
    this.context.log.warn({ err: error }, 'site insights could not make an event');
  }

  /** Writes what is queued; resolves once it is written (or dropped, when the database refuses). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.all(this.making);
    while (this.flushing) await this.flushing;
    if (this.queue.length === 0) return;
    this.flushing = this.writeQueued();
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH_SIZE);
      try {
        await insertInsightEvents(this.context.db, batch);
      } catch (error) {
        this.dropped += batch.length;
        this.context.log.warn({ err: error, dropped: batch.length }, 'site insights could not write events');
      }
    }
  }
}

/** The app's recorder, writing through the app's own database (the primary), whatever context asks for it. */
export const insightsRecorder = perContext((app) => new InsightsRecorder(app));
