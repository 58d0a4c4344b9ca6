import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import { purgeDeletedSpaces } from './purge.js';

export interface PurgeSchedule {
  /** A cron pattern (croner syntax, seconds optional). */
  pattern: string;
  batchSize: number;
}

/**
 * Runs the purge on the schedule, and once now. Runs never overlap in this
 * process, and the advisory lock keeps other instances' runs from overlapping
 * with them. Returns a function that stops the schedule.
 */
export function schedulePurge(app: FastifyInstance, schedule: PurgeSchedule): () => void {
  const run = async () => {
    try {
      await purgeDeletedSpaces(app.db, app.clock, { retentionMs: app.config.spaceRetentionMs, batchSize: schedule.batchSize }, app.log);
    } catch (error) {
      app.log.error({ err: error }, 'purging deleted spaces failed; the next run will try again');
    }
  };
  const job = new Cron(schedule.pattern, { protect: true }, run);
  void run();
  return () => job.stop();
}
