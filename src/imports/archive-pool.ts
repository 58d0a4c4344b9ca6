import {
  poolLikeConversions,
  taskModuleBeside,
  type ConversionSettings,
  type WorkPool,
  type WorkPoolOptions,
} from '../core/work-pool.js';
import type { ReadZip } from './zip-read.js';

export type { ReadZip } from './zip-read.js';

const WORKER_MODULE = taskModuleBeside(import.meta.url, 'archive-worker');

/** Time a zip is given for each KiB of it, beyond CONVERSION_TIMEOUT_MS: inflating, then reading every page's links. */
const MS_PER_KIB = 4;

/** The pool imported zips are read on, built once by the app: the conversions' threads, deadline and wait. */
export function importArchivePool(
  conversion: ConversionSettings,
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  // Runs are one at a time per organization: a short queue is plenty.
  return poolLikeConversions(WORKER_MODULE, conversion, { msPerKib: MS_PER_KIB, queuePerThread: 4 }, onThreadError);
}

/** A zip of markdown read into content on `pool` (importArchivePool's), within its deadline; `field` names it in refusals. */
export function readZipOffThread(pool: WorkPool, bytes: Uint8Array, field: string): Promise<ReadZip> {
  return pool.run('readZip', { bytes, field }, { field, characters: bytes.byteLength });
}

declare module '../context.js' {
  interface Context {
    /** Imported zips inflated and read, off the event loop within a deadline (importArchivePool's tasks). */
    importArchives: WorkPool;
  }
}
