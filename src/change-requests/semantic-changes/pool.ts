import {
  poolLikeConversions,
  taskModuleBeside,
  type ConversionSettings,
  type WorkPool,
  type WorkPoolOptions,
} from '../../core/work-pool.js';
import type { RevisionDiff, RevisionDiffInput } from './revision-diff.js';

const WORKER_MODULE = taskModuleBeside(import.meta.url, 'worker');

/** Time a diff is given beyond CONVERSION_TIMEOUT_MS for each KiB of the documents it compares. */
const MS_PER_KIB = 2;

/** The pool revision diffs are computed on, built once by the app: the conversions' threads, deadline and wait. */
export function revisionDiffPool(
  conversion: ConversionSettings,
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  return poolLikeConversions(WORKER_MODULE, conversion, { msPerKib: MS_PER_KIB, queuePerThread: 16 }, onThreadError);
}

/** Two revisions compared on the pool; `characters` is the size of the documents sent, for the deadline. */
export function diffOffThread(pool: WorkPool, input: RevisionDiffInput, characters: number): Promise<RevisionDiff> {
  return pool.run('diffRevisions', input, { field: 'The changes between these revisions', characters });
}

declare module '../../context.js' {
  interface Context {
    /** Revision diffs, off the event loop within a deadline (revisionDiffPool's task). */
    revisionDiffs: WorkPool;
  }
}
