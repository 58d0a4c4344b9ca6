import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Context } from '../context.js';
import { checkCustomHostnames } from './actions.js';

/**
 * Looks custom hostnames' records up again on the schedule (a cron pattern),
 * `batchSize` a run, those checked longest ago first: a pending one goes live
 * without its owner asking, and a live one whose record is gone stops. Runs
 * never overlap in this process; instances take different rows. Returns a
 * function that stops it.
 */
export function scheduleHostnameChecks(
  context: Context,
  schedule: { pattern: string; batchSize: number },
  log: FastifyBaseLogger = context.log,
): () => void {
  const run = async () => {
    try {
      await checkCustomHostnames(context, schedule.batchSize);
    } catch (error) {
      log.error({ err: error }, 'checking custom hostnames failed; the next run will try again');
    }
  };
  const job = new Cron(schedule.pattern, { protect: true }, run);
  return () => job.stop();
}
