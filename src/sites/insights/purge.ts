import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Context } from '../../context.js';
import { deleteInsightEventsBefore } from './queries.js';

const DAY_MS = 86_400_000;
/** Events removed per statement: short transactions, however long the backlog. */
const BATCH_SIZE = 5000;

/** Removes the events older than INSIGHTS_RETENTION_DAYS, a batch per statement; returns how many. */
export async function purgeInsightEvents(context: Context): Promise<number> {
  const cutoff = new Date(context.clock.now().getTime() - context.config.insights.retentionDays * DAY_MS);
  let removed = 0;
  for (;;) {
    const batch = await deleteInsightEventsBefore(context.db, cutoff, BATCH_SIZE);
    removed += batch;
    if (batch < BATCH_SIZE) return removed;
  }
}

/** Runs the insights' purge on `pattern` (the spaces' purge schedule), and once now; returns its stop. */
export function scheduleInsightsPurge(context: Context, pattern: string, log: FastifyBaseLogger): () => void {
  const run = async () => {
    try {
      const removed = await purgeInsightEvents(context);
      if (removed > 0) log.info({ removed }, 'removed site insight events past their retention');
    } catch (error) {
      log.error({ err: error }, 'purging old site insight events failed; the next run will try again');
    }
  };
  const job = new Cron(pattern, { protect: true }, run);
  void run();
  return () => job.stop();
}
