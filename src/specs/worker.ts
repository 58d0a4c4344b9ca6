import type { FastifyBaseLogger } from 'fastify';
import type { Context } from '../context.js';
import { isDatabaseUnavailable } from '../core/errors.js';
import { boundErrors } from './documents.js';
import {
  claimSpecJob,
  completeSpecJob,
  failSpecJob,
  renewLease,
  retrySpecJob,
  startSpecProcessing,
  type ClaimedJob,
} from './jobs.js';
import { SpecParser } from './parser.js';
import { processSpecSource } from './processing.js';
import { ProcessFailure } from './sources.js';

export interface SpecWorkerOptions {
  log?: FastifyBaseLogger;
  /** How long a claim holds a job before another worker may take it over; renewed every third of it. Default 30 s. */
  leaseMs?: number;
  /** The delay before the first retry of a failed job; each further one doubles it, up to an hour. Default 1 s. */
  retryBaseMs?: number;
}

/** Runs spec jobs one at a time. */
export interface SpecProcessor {
  /** Claims the next job due and runs it to its end; false when none was due. */
  runNext(): Promise<boolean>;
  /** Stops: a job running is stopped (its parse too) and put back for another worker. */
  close(): Promise<void>;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_RETRY_BASE_MS = 1_000;
const MAX_RETRY_DELAY_MS = 3_600_000;

export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

export function createSpecProcessor(context: Context, options: SpecWorkerOptions = {}): SpecProcessor {
  const log = options.log ?? context.log;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  const { maxAttempts } = context.config.specs;
  const { db, clock } = context;
  const stopParsing = new AbortController();
  const parser = new SpecParser(context.workPools.specs, stopParsing.signal);
  const running = new Map<ClaimedJob, { stop: AbortController; done: Promise<unknown> }>();
  let closing = false;

  /** One job: its spec processed, and the outcome written, unless the spec was deleted meanwhile. */
  async function runJob(job: ClaimedJob, signal: AbortSignal): Promise<void> {
    const facts = { specId: job.spec_id, job: job.id, attempt: job.attempts };
    if (job.attempts > maxAttempts) {
      // Claimed again and again without an outcome: its workers stopped each time (out of memory, killed).
      const message = `Processing the spec stopped ${job.attempts - 1} times before it could finish`;
      await failSpecJob(db, job, { code: 'PARSE_ERROR', errors: [{ message, code: 'ABANDONED' }] }, clock.now());
      log.warn(facts, 'gave up on an OpenAPI spec job whose workers kept stopping');
      return;
    }
    const stored = await startSpecProcessing(db, job);
    if (!stored) return;
    let processed;
    try {
      processed = await processSpecSource(context, parser, stored, signal);
    } catch (error) {
      if (!(error instanceof ProcessFailure)) throw error;
      if (error.transient && job.attempts < maxAttempts) {
        const delayMs = retryDelayMs(job.attempts, retryBaseMs);
        await retrySpecJob(db, job, { delayMs, error: error.message });
        log.info({ ...facts, code: error.code, delayMs }, 'OpenAPI spec processing failed; trying again later');
        return;
      }
      await failSpecJob(db, job, { code: error.code, errors: boundErrors(error.errors) }, clock.now());
      log.info({ ...facts, code: error.code }, 'OpenAPI spec processing failed');
      return;
    }
    const outcome = await completeSpecJob(db, job, processed, clock.now());
    log.info({ ...facts, outcome }, 'processed an OpenAPI spec');
  }

  /** After a fault of the service's (not the spec's): try again later, or record the failure after the last attempt. */
  async function afterFault(job: ClaimedJob, error: unknown): Promise<void> {
    const facts = { specId: job.spec_id, job: job.id, attempt: job.attempts };
    if (closing) {
      await retrySpecJob(db, job, { delayMs: 0, error: 'The worker stopped', refund: true });
      log.info(facts, 'put an OpenAPI spec job back: the worker is stopping');
      return;
    }
    log.error({ ...facts, err: error }, 'processing an OpenAPI spec failed');
    if (job.attempts >= maxAttempts) {
      const errors = [{ message: 'The spec could not be processed', code: 'INTERNAL' }];
      await failSpecJob(db, job, { code: 'PARSE_ERROR', errors }, clock.now());
    } else {
      await retrySpecJob(db, job, { delayMs: retryDelayMs(job.attempts, retryBaseMs), error: String(error) });
    }
  }

  async function run(job: ClaimedJob, stop: AbortController): Promise<void> {
    let leaseLost = false;
    const heartbeat = setInterval(() => {
      renewLease(db, job, leaseMs).then(
        (held) => {
          if (held) return;
          leaseLost = true;
          stop.abort();
        },
        (error: unknown) => log.warn({ err: error, job: job.id }, 'could not renew an OpenAPI spec job’s lease'),
      );
    }, leaseMs / 3);
    try {
      await runJob(job, stop.signal);
    } catch (error) {
      // Another worker holds the job now: its outcome is that worker's to write.
      if (leaseLost) {
        log.warn({ job: job.id, specId: job.spec_id }, 'lost the lease of an OpenAPI spec job; leaving it');
        return;
      }
      // If this fails too (the database is away), the lease runs out and the job is claimed again.
      await afterFault(job, error).catch((failure: unknown) =>
        log.error({ err: failure, job: job.id }, 'could not record the outcome of an OpenAPI spec job'),
      );
    } finally {
      clearInterval(heartbeat);
    }
  }

  return {
    async runNext() {
      if (closing) return false;
      const job = await claimSpecJob(db, leaseMs);
      if (!job) return false;
      const stop = new AbortController();
      const done = run(job, stop);
      running.set(job, { stop, done });
      try {
        await done;
      } finally {
        running.delete(job);
      }
      return true;
    },
    async close() {
      closing = true;
      for (const { stop } of running.values()) stop.abort();
      // Ends the parse under way at once: its task fails, and the job is put back.
      stopParsing.abort();
      await Promise.allSettled([...running.values()].map(({ done }) => done));
    },
  };
}

export interface SpecWorker {
  /** Stops polling; a job under way is put back for another worker. */
  stop(): Promise<void>;
  /** Resolves once the worker looks for a job and finds none due (jobs waiting out a retry's delay are not due). */
  drain(): Promise<void>;
}

/**
 * Processes the specs' jobs in this instance: claims the next job due,
 * runs it, and looks again; when none is due, it waits SPEC_POLL_INTERVAL_MS.
 * Any number of instances may run one: claims never hand a job to two.
 */
export function startSpecWorker(context: Context, options: SpecWorkerOptions = {}): SpecWorker {
  const log = options.log ?? context.log;
  const processor = createSpecProcessor(context, { ...options, log });
  let stopped = false;
  let wake: (() => void) | undefined;
  const idle: Array<() => void> = [];

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    while (!stopped) {
      let ran = false;
      try {
        ran = await processor.runNext();
      } catch (error) {
        if (isDatabaseUnavailable(error))
          log.warn({ cause: (error as Error).message }, 'looking for OpenAPI spec jobs failed; looking again shortly');
        else log.error({ err: error }, 'looking for OpenAPI spec jobs failed; looking again shortly');
      }
      if (ran) continue;
      for (const resolve of idle.splice(0)) resolve();
      if (!stopped) await pause(context.config.specs.pollIntervalMs);
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await processor.close();
      await loop;
      for (const resolve of idle.splice(0)) resolve();
    },
    drain() {
      if (stopped) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idle.push(resolve);
        wake?.();
      });
    },
  };
}
