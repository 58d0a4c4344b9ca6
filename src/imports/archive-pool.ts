import type { WorkPool, WorkPoolOptions } from '../core/work-pool.js';
import type { ReadZip } from './zip-read.js';

export type { ReadZip } from './zip-read.js';

/** The task module beside this one, in the form the service runs from (built JavaScript, or TypeScript source). */
const WORKER_MODULE = new URL(`./archive-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Time a zip is given for each KiB of it, beyond CONVERSION_TIMEOUT_MS: inflating, then reading every page's links. */
const MS_PER_KIB = 4;

/** The pool imported zips are read on, built once by the app: the conversions' threads, deadline and wait. */
export function importArchivePool(
  conversion: { threads: number; timeoutMs: number; queueWaitMs: number },
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  return {
    filename: WORKER_MODULE,
    threads: conversion.threads,
    timeoutMs: conversion.timeoutMs,
    queueWaitMs: conversion.queueWaitMs,
    msPerKib: MS_PER_KIB,
    // Runs are one at a time per organization: a short queue is plenty.
    maxQueue: conversion.threads * 4,
    onThreadError,
  };
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
