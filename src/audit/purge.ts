import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import type { Context } from '../context.js';
import { deleteAuditEventsBefore } from './queries.js';

const DAY_MS = 86_400_000;
/** Events removed per statement: short transactions, however long the backlog. */
const BATCH_SIZE = 1000;

/**
 * Removes the events older than the retention (AUDIT_RETENTION_DAYS), a batch
 * per statement until none is left; returns how many. Instances that run it
 * at once delete disjoint or already-deleted rows: no lock is needed.
 */
export async function purgeAuditEvents(db: Db, clock: Clock, retentionDays: number): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - retentionDays * DAY_MS);
  let removed = 0;
  for (;;) {
    const batch = await deleteAuditEventsBefore(db, cutoff, BATCH_SIZE);
    removed += batch;
    if (batch < BATCH_SIZE) return removed;
  }
}

/** Runs the audit log's purge on `pattern` (the spaces' purge schedule), and once now; returns its stop. */
export function scheduleAuditPurge(
  context: Context,
  pattern: string,
  log: FastifyBaseLogger = context.log,
): () => void {
  const run = async () => {
    try {
      const removed = await purgeAuditEvents(context.db, context.clock, context.config.auditRetentionDays);
      if (removed > 0) log.info({ removed }, 'removed audit events past their retention');
    } catch (error) {
      log.error({ err: error }, 'purging old audit events failed; the next run will try again');
    }
  };
  const job = new Cron(pattern, { protect: true }, run);
  void run();
  return () => job.stop();
}
