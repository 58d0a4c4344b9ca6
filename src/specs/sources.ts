import { OutboundError } from '../core/outbound.js';
import type { SpecProcessError } from '../db/types.js';
import type { Context } from '../context.js';
import type { SpecParser } from './parser.js';
import type { ProcessErrorCode } from './schemas.js';

/** Why processing a spec failed, and whether trying again later could help. */
export class ProcessFailure extends Error {
  constructor(
    readonly code: ProcessErrorCode,
    readonly errors: SpecProcessError[],
    /** A network failure may pass; a spec that does not parse, or a URL refused, will not. */
    readonly transient: boolean,
  ) {
    super(errors[0]?.message ?? code);
    this.name = 'ProcessFailure';
  }
}

/** A file of a spec, as fetched or given. */
export interface SpecFile {
  /** Its absolute URL: where it was fetched from, or TEXT_ENTRY_URL. */
  url: string;
  /** How the version names it: its URL, or openapi.json / openapi.yaml for a spec given as text. */
  path: string;
  text: string;
}

/**
 * The address a spec given as text is read at, inside processing only: its
 * own $refs (`#/…`) resolve against it, and nothing is ever fetched from it
 * (`.invalid` names no host).
 */
export const TEXT_ENTRY_URL = 'https://text.invalid/openapi';

const ACCEPT = 'application/json, application/yaml, application/x-yaml, text/yaml, text/plain;q=0.9, */*;q=0.8';

/** A URL as messages show it: no query, which may carry a token, and no credentials. */
function describe(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

const fetchError = (message: string, transient: boolean) =>
  new ProcessFailure('FETCH_ERROR', [{ message, code: 'FETCH_ERROR' }], transient);
const parseError = (errors: SpecProcessError[]) => new ProcessFailure('PARSE_ERROR', errors, false);

/**
 * Fetches one file through the service's guarded fetcher, within
 * SPEC_FETCH_TIMEOUT_MS (at most OUTBOUND_TIMEOUT_MS) and the bytes left of
 * the spec's budget.
 */
async function fetchFile(context: Context, url: string, maxBytes: number): Promise<string> {
  const { fetchTimeoutMs, maxBytes: totalBytes } = context.config.specs;
  let response;
  try {
    response = await context.outbound.fetch(url, { maxBytes, accept: ACCEPT, timeoutMs: fetchTimeoutMs });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    // The fetcher's messages are fit to show; a URL it refuses, or a body over the budget, is not worth trying again.
    switch (error.failure) {
      case 'timeout':
        throw new ProcessFailure('FETCH_TIMEOUT', [{ message: error.message, code: 'FETCH_TIMEOUT' }], true);
      case 'too-large':
        throw fetchError(`The spec's files are over the ${totalBytes}-byte limit (at ${describe(url)})`, false);
      default:
        throw fetchError(error.message, error.failure !== 'refused');
    }
  }
  if (response.status < 200 || response.status > 299) {
    const transient = response.status >= 500 || response.status === 408 || response.status === 429;
    throw fetchError(`${describe(url)} answered with HTTP status ${response.status}`, transient);
  }
  return response.body.toString('utf8');
}

/**
 * The entry file of a spec and every file its $refs reach, breadth first:
 * each file is read on the parser's threads for the files it names, which
 * are fetched in turn, within SPEC_MAX_FILES files, SPEC_MAX_REF_DEPTH
 * references from the entry, and SPEC_MAX_BYTES over them all.
 */
export async function collectSpecFiles(
  context: Context,
  parser: SpecParser,
  source: { url: string } | { text: string },
  signal: AbortSignal,
): Promise<{ entry: string; files: SpecFile[] }> {
  const limits = context.config.specs;
  const fromText = 'text' in source;
  const entry = fromText ? TEXT_ENTRY_URL : new URL(source.url).href;
  const files: SpecFile[] = [];
  const seen = new Set([entry]);
  let queue = [entry];
  let bytesLeft = limits.maxBytes;

  for (let depth = 0; queue.length > 0; depth++) {
    const next: string[] = [];
    for (const url of queue) {
      signal.throwIfAborted();
      if (files.length >= limits.maxFiles) {
        throw parseError([
          { message: `The spec's $refs reach more than ${limits.maxFiles} files`, code: 'TOO_MANY_FILES' },
        ]);
      }
      const text = fromText && url === entry ? source.text : await fetchFile(context, url, bytesLeft);
      bytesLeft -= Buffer.byteLength(text);
      if (bytesLeft < 0) {
        throw fetchError(`The spec's files are over the ${limits.maxBytes}-byte limit`, false);
      }
      signal.throwIfAborted();
      const name = fromText && url === entry ? 'The spec' : describe(url);
      const read = await parser.listRefs({ url, name, text, relativeAllowed: !(fromText && url === entry) });
      if (!read.readable) throw parseError(read.errors);
      const path = fromText && url === entry ? `openapi.${read.format}` : url;
      files.push({ url, path, text });
      for (const ref of read.refs) {
        if (seen.has(ref)) continue;
        if (depth + 1 > limits.maxRefDepth) {
          throw parseError([
            {
              message: `${describe(ref)} is more than ${limits.maxRefDepth} $refs away from the entry file`,
              code: 'REF_TOO_DEEP',
            },
          ]);
        }
        seen.add(ref);
        next.push(ref);
      }
    }
    queue = next;
  }
  return { entry, files };
}
