/**
 * The export pool's tasks, on worker threads, never on the event loop: a
 * repository's files zipped, and pages drawn as a PDF (pdfkit decodes PNG
 * images with zlib's callbacks, so a task may finish after it returns).
 */
import { zipSync } from 'fflate';
import type { TaskOutcome, TaskRequest } from '../core/work-pool.js';
import { renderPdf, type PdfInput } from './pdf.js';

/** Every file deflated but those already compressed (images, archives), which are stored as they are. */
const STORED = /\.(png|jpe?g|gif|webp|avif|zip|gz|mp4|woff2?)$/i;

function zipFiles(files: Record<string, Uint8Array>): Uint8Array {
  // A fixed date: the same content zips to the same bytes.
  const mtime = new Date('2020-01-01T00:00:00Z');
  return zipSync(
    Object.fromEntries(
      Object.entries(files).map(([path, bytes]) => [path, [bytes, { level: STORED.test(path) ? 0 : 6, mtime }]]),
    ),
  );
}

const tasks: Record<string, (data: never) => Promise<unknown>> = {
  zip: async (files: Record<string, Uint8Array>) => zipFiles(files),
  pdf: async (input: PdfInput) => renderPdf(input),
};

export default async function run({ task, data, started }: TaskRequest): Promise<TaskOutcome<unknown>> {
  started.postMessage(null);
  started.close();
  const work = tasks[task];
  if (!work) throw new Error(`No task ${task} in this module`);
  try {
    return { ok: true, value: await work(data as never) };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, refused: 'nests too deeply to be drawn' };
    return { ok: false, refused: `could not be made (${(error as Error).message})` };
  }
}
