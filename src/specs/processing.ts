import { ApiError } from '../core/errors.js';
import type { Context } from '../context.js';
import type { ProcessedSpec } from './jobs.js';
import type { SpecParser } from './parser.js';
import { collectSpecFiles, ProcessFailure, type SpecFile } from './sources.js';

/** A spec's source as stored: a URL or a text. */
export interface StoredSource {
  source_url: string | null;
  source_text: string | null;
}

/**
 * Processes a spec's source: fetches its files, then has the parser check,
 * validate and outline them. Resolves with what to store, or rejects with a
 * ProcessFailure (the spec's error), or anything else (a fault of the
 * service's: the job is tried again).
 */
export async function processSpecSource(
  context: Context,
  parser: SpecParser,
  stored: StoredSource,
  signal: AbortSignal,
): Promise<ProcessedSpec> {
  const source = stored.source_url !== null ? { url: stored.source_url } : { text: stored.source_text ?? '' };
  try {
    const { entry, files } = await collectSpecFiles(context, parser, source, signal);
    signal.throwIfAborted();
    const built = await parser.build({ entry, files });
    if (!built.valid) throw new ProcessFailure('PARSE_ERROR', built.errors, false);
    const entryFile = files.find((file) => file.url === entry) as SpecFile;
    return {
      sourceUrl: stored.source_url,
      hash: built.hash,
      entryText: entryFile.text,
      entryFormat: built.format,
      filesystem: built.filesystem,
      outline: built.outline,
    };
  } catch (error) {
    if (error instanceof ProcessFailure || signal.aborted) throw error;
    // The parser's refusals: past its deadline, out of memory, nested too deeply. The spec is at fault.
    if (error instanceof ApiError && error.statusCode === 400) {
      throw new ProcessFailure('PARSE_ERROR', [{ message: error.message, code: 'TOO_COMPLEX' }], false);
    }
    throw error;
  }
}
