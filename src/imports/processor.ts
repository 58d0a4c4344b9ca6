import type { FastifyBaseLogger } from 'fastify';
import { startPollLoop } from '../core/poll-loop.js';
import type { Context } from '../context.js';
import { ApiError } from '../core/errors.js';
import { GitRemoteError } from '../git-sync/git/errors.js';
import { claimImportRun, endImportRun, MAX_ATTEMPTS, type ImportRun } from './queries.js';
import { executeRun, noteCancelled, RunRefused, RunReleased } from './run.js';

/**
 * How long a claim holds a run: a crawl's or a Git read's time limit, and as
 * long again for the writes and the merge. A run whose instance died is taken
 * again after it, by any instance.
 */
const leaseMsOf = (context: Context) =>
  2 * Math.max(context.config.importLimits.timeoutMs, context.config.gitSync.operationTimeoutMs) + 60_000;

/** Runs import runs one at a time. */
export interface ImportRunProcessor {
  /** Claims the next run due and runs it to its end (or its release); false when none was due. */
  runNext(): Promise<boolean>;
}

/**
 * `signal` stops the processor: a run under way is left claimed, not ended,
 * and is taken again once its lease expires (by any instance), going on after
 * its last recorded write.
 */
export function createImportRunProcessor(
  context: Context,
  log: FastifyBaseLogger = context.log,
  signal?: AbortSignal,
): ImportRunProcessor {
  async function run(claimed: ImportRun): Promise<void> {
    const facts = { importRun: claimed.id, organization: claimed.organization_id, source: claimed.source_type };
    const fail = (reason: string) =>
      endImportRun(context.db, claimed, { status: 'failed', reason }, context.clock.now());
    if (claimed.attempts > MAX_ATTEMPTS) {
      await fail(`The import stopped ${claimed.attempts - 1} times before it could finish`);
      log.warn(facts, 'gave up on an import run whose workers kept stopping');
      return;
    }
    try {
      await executeRun(context, claimed, signal);
      await endImportRun(context.db, claimed, { status: 'completed', reason: null }, context.clock.now());
      log.info(facts, 'an import run completed');
    } catch (error) {
      if (signal?.aborted) {
        log.info(facts, 'an import run was stopped with its instance; it goes on after its lease');
        return;
      }
      if (error instanceof RunReleased) {
        await noteCancelled(context, claimed);
        log.info(facts, 'an import run was cancelled or taken by another claim; this one stopped');
        return;
      }
      if (error instanceof RunRefused || error instanceof GitRemoteError) {
        await fail(error.message);
      } else if (error instanceof ApiError && error.statusCode < 500) {
        // Refused as a request would be (the user lost the edit role, the space is locked, a conflict): the reason is the user's.
        await fail(error.message);
      } else {
        await fail('The import failed on the service; it was logged');
        log.error({ ...facts, err: error }, 'an import run failed');
      }
    }
  }

  return {
    async runNext() {
      const claimed = await claimImportRun(context.db, context.clock.now(), leaseMsOf(context));
      if (!claimed) return false;
      await run(claimed);
      return true;
    },
  };
}

/** Looks for import runs every `pollIntervalMs` and runs them; `stop` waits for the one running. */
export interface ImportRunWorker {
  stop(): Promise<void>;
}

export function startImportRunWorker(
  context: Context,
  log: FastifyBaseLogger,
  pollIntervalMs: number,
): ImportRunWorker {
  const stopping = new AbortController();
  const processor = createImportRunProcessor(context, log, stopping.signal);
  return startPollLoop({
    next: () => processor.runNext(),
    idleMs: pollIntervalMs,
    log,
    what: 'looking for import runs',
    onStop: () => stopping.abort(),
  });
}
