import {
  poolLikeConversions,
  taskModuleBeside,
  type ConversionSettings,
  type WorkPool,
  type WorkPoolOptions,
} from '../core/work-pool.js';
import type { PdfInput } from './pdf.js';

const WORKER_MODULE = taskModuleBeside(import.meta.url, 'worker');

/** Time an export is given beyond CONVERSION_TIMEOUT_MS for each KiB of what it holds: drawing costs more than parsing. */
const MS_PER_KIB = 6;

/** The pool zips and PDFs are made on, built once by the app: the conversions' threads, deadline and wait. */
export function exportPool(conversion: ConversionSettings, onThreadError: (error: unknown) => void): WorkPoolOptions {
  return poolLikeConversions(WORKER_MODULE, conversion, { msPerKib: MS_PER_KIB, queuePerThread: 8 }, onThreadError);
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
