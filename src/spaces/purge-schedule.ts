import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Context } from '../context.js';
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
export function schedulePurge(
  context: Context,
  schedule: PurgeSchedule,
  log: FastifyBaseLogger = context.log,
): () => void {
  const run = async () => {
    try {
      const options = { retentionMs: context.config.spaceRetentionMs, batchSize: schedule.batchSize };
      await purgeDeletedSpaces(context.db, context.clock, options, log);
    } catch (error) {
      log.error({ err: error }, 'purging deleted spaces failed; the next run will try again');
    }
  };
  const job = new Cron(schedule.pattern, { protect: true }, run);
  void run();
  return () => job.stop();
}
