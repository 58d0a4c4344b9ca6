import type { FastifyBaseLogger } from 'fastify';
import { startPollLoop } from '../core/poll-loop.js';
import type { Context } from '../context.js';
import { ApiError, isDatabaseUnavailable } from '../core/errors.js';
import { credentialsContext } from './actions.js';
import { runExport } from './export-run.js';
import { GitRemoteError } from './git/errors.js';
import type { GitRemote } from './git/remote.js';
import { runImport } from './import-run.js';
import { claimOperation, endOperation, retryOperation, type GitSyncOperation } from './queries.js';

/** Claims after which an operation whose workers kept stopping (killed, out of memory) is given up. */
const MAX_ATTEMPTS = 3;

/**
 * The delays before each retry of an operation that failed for a reason that
 * may pass: the remote unreachable or too slow, the service's own failure.
 */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000] as const;

/** Runs Git Sync operations one at a time. */
export interface GitSyncProcessor {
  /** Claims the next operation due and runs it to its end; false when none was due. */
  runNext(): Promise<boolean>;
}

/** How long a claim holds an operation: its Git work's time limit twice over, for the writes into the space after it. */
const leaseMsOf = (context: Context) => 2 * context.config.gitSync.operationTimeoutMs + 60_000;

function remoteOf(context: Context, operation: GitSyncOperation): GitRemote {
  return {
    url: operation.url,
    ref: operation.ref,
    ...(operation.authorization_sealed
      ? { authorization: context.keyring.open(operation.authorization_sealed, credentialsContext(operation.id)) }
      : {}),
  };
}

/**
 * `signal` stops the processor: an operation under way is left claimed, not
 * ended, and is taken again once its lease expires (by any instance).
 */
export function createGitSyncProcessor(
  context: Context,
  log: FastifyBaseLogger = context.log,
  signal?: AbortSignal,
): GitSyncProcessor {
  async function run(operation: GitSyncOperation): Promise<void> {
    const facts = { operation: operation.id, space: operation.space_id, direction: operation.direction };
    const end = (
      state: 'success' | 'failure' | 'timeout',
      error: string | null,
      outcome = { commitSha: null as string | null, changeRequestId: null as string | null },
    ) => endOperation(context.db, operation, { state, error, ...outcome }, context.clock.now());
    if (operation.attempts > MAX_ATTEMPTS) {
      await end('failure', `The operation stopped ${operation.attempts - 1} times before it could finish`);
      log.warn(facts, 'gave up on a Git Sync operation whose workers kept stopping');
      return;
    }
    try {
      const remote = remoteOf(context, operation);
      const outcome =
        operation.direction === 'import'
          ? await runImport(context, operation, remote)
          : await runExport(context, operation, remote);
      await end('success', null, outcome);
      log.info({ ...facts, commit: outcome.commitSha }, 'a Git Sync operation succeeded');
    } catch (error) {
      if (signal?.aborted) {
        log.info(facts, 'a Git Sync operation was stopped with its instance; it runs again after its lease');
        return;
      }
      const failure = failureOf(error);
      if (failure.transient && operation.retries < RETRY_DELAYS_MS.length) {
        const retryAt = new Date(context.clock.now().getTime() + RETRY_DELAYS_MS[operation.retries]!);
        await retryOperation(context.db, operation, { error: failure.message, retryAt });
        log.warn({ ...facts, retryAt, cause: failure.message }, 'a Git Sync operation failed; it runs again later');
      } else {
        await end(failure.state, failure.message);
      }
      if (failure.logged) log.error({ ...facts, err: error }, 'a Git Sync operation failed');
    }
  }

  return {
    async runNext() {
      const operation = await claimOperation(context.db, context.clock.now(), leaseMsOf(context));
      if (!operation) return false;
      await run(operation);
      return true;
    },
  };
}

interface Failure {
  state: 'failure' | 'timeout';
  message: string;
  /** Whether it may pass: the operation is retried later. */
  transient: boolean;
  /** The service's own failure, logged with its stack and shown without it. */
  logged: boolean;
}

function failureOf(error: unknown): Failure {
  if (error instanceof GitRemoteError) {
    const transient = error.failure === 'unreachable' || error.failure === 'timeout';
    return {
      state: error.failure === 'timeout' ? 'timeout' : 'failure',
      message: error.message,
      transient,
      logged: false,
    };
  }
  if (error instanceof ApiError && error.statusCode < 500)
    // Refused as a request would be (the user lost the edit role, the space is locked, a conflict): the reason is the user's.
    return { state: 'failure', message: error.message, transient: false, logged: false };
  if (isDatabaseUnavailable(error))
    return { state: 'failure', message: 'The database could not be reached', transient: true, logged: false };
  return {
    state: 'failure',
    message: 'The operation failed on the service; it was logged',
    transient: false,
    logged: true,
  };
}

/** Looks for operations every `pollIntervalMs` and runs them; `stop` waits for the one running. */
export interface GitSyncWorker {
  stop(): Promise<void>;
}

export function startGitSyncWorker(context: Context, log: FastifyBaseLogger, pollIntervalMs: number): GitSyncWorker {
  const stopping = new AbortController();
  const processor = createGitSyncProcessor(context, log, stopping.signal);
  return startPollLoop({
    next: () => processor.runNext(),
    idleMs: pollIntervalMs,
    log,
    what: 'looking for Git Sync operations',
    onStop: () => stopping.abort(),
  });
}
