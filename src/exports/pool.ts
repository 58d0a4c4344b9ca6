import type { WorkPool, WorkPoolOptions } from '../core/work-pool.js';
import type { PdfInput } from './pdf.js';

/** The task module beside this one, in the form the service runs from (built JavaScript, or TypeScript source). */
const WORKER_MODULE = new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Time an export is given beyond CONVERSION_TIMEOUT_MS for each KiB of what it holds: drawing costs more than parsing. */
const MS_PER_KIB = 6;

/** The pool zips and PDFs are made on, built once by the app: the conversions' threads, deadline and wait. */
export function exportPool(
  conversion: { threads: number; timeoutMs: number; queueWaitMs: number },
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  return {
    filename: WORKER_MODULE,
    threads: conversion.threads,
    timeoutMs: conversion.timeoutMs,
    queueWaitMs: conversion.queueWaitMs,
    msPerKib: MS_PER_KIB,
    maxQueue: conversion.threads * 8,
    onThreadError,
  };
}

/** The files zipped, on the pool; `characters` is their size, for the deadline. */
export function zipOffThread(pool: WorkPool, files: Record<string, Uint8Array>, bytes: number): Promise<Uint8Array> {
  return pool.run('zip', files, { field: 'The export', characters: bytes });
}

/** The pages drawn as a PDF, on the pool; `characters` is the documents' size, for the deadline. */
export function pdfOffThread(pool: WorkPool, input: PdfInput, characters: number): Promise<Uint8Array> {
  return pool.run('pdf', input, { field: 'The PDF export', characters });
}

declare module '../context.js' {
  interface Context {
    /** Zips and PDFs of exports, off the event loop within a deadline (exportPool's tasks). */
    exportWorks: WorkPool;
  }
}
