/**
 * The spec parser's tasks, on worker threads within a deadline (see
 * parser.ts). `listRefs` reads one file and names the files its $refs need;
 * the event loop fetches those and asks again, until it has them all. Then
 * `build` reads the whole set: checks every $ref, validates the spec with
 * swagger-parser (reading files from the set, never the network), and makes
 * what a version stores. Tasks are asynchronous (swagger-parser is), hence
 * this module's own entry rather than `serveTasks`.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { createRequire } from 'node:module';
import type { TaskOutcome, TaskRequest } from '../core/work-pool.js';
import type { SpecProcessError } from '../db/types.js';
import {
  boundErrors,
  brokenRefs,
  contentHash,
  expandedSize,
  externalRefs,
  outlineOf,
  parseSpecFile,
  SpecFileError,
  specKind,
  type SpecFormat,
} from './documents.js';

const require = createRequire(import.meta.url);
/** swagger-parser's check of a spec against the official JSON Schema of its version, on the spec as written. */
const validateAgainstSchema = require('@apidevtools/swagger-parser/lib/validators/schema.js') as (api: unknown) => void;

/**
 * Past this many values with every $ref expanded, a spec is validated as
 * written (its $refs left as references) rather than dereferenced: the
 * dereferenced form of linked schemas can grow exponentially, and with it
 * the time to validate. A few seconds of validation at most.
 */
const EXPANSION_LIMIT = 1_000_000;

export interface ListRefsInput {
  /** The file's absolute URL, its refs' base. */
  url: string;
  /** How messages name the file. */
  name: string;
  text: string;
  /** False for a spec given as text: it has no address to resolve relative refs from. */
  relativeAllowed: boolean;
}

export type ListRefsResult =
  | { readable: true; format: SpecFormat; refs: string[] }
  | { readable: false; errors: SpecProcessError[] };

export interface BuildInput {
  /** The entry file's URL, one of the files'. */
  entry: string;
  files: Array<{ url: string; path: string; text: string }>;
}

export type BuildResult =
  | {
      valid: true;
      format: SpecFormat;
      /** {entrypoint, files: [{path, isEntrypoint, specification}]}, as JSON text. */
      filesystem: string;
      hash: string;
      /** The outline, as JSON text. */
      outline: string;
    }
  | { valid: false; errors: SpecProcessError[] };

function listRefs(input: ListRefsInput): ListRefsResult {
  try {
    const { format, value } = parseSpecFile(input.text, input.name);
    const { refs, problems } = externalRefs(value, input.url, input.name, input.relativeAllowed);
    if (problems.length > 0) return { readable: false, errors: boundErrors(problems) };
    return { readable: true, format, refs };
  } catch (error) {
    if (error instanceof SpecFileError) return { readable: false, errors: [{ message: error.message }] };
    throw error;
  }
}

interface AjvError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: { missingProperty?: string };
}

/** swagger-parser's failure as the spec's errors: one per schema rule broken, else its message. */
function validationErrors(error: unknown, rename: (message: string) => string): SpecProcessError[] {
  const details = (error as { details?: unknown }).details;
  if (Array.isArray(details) && details.length > 0) {
    // "Matches none of oneOf" and "is not a $ref either" restate the specific errors beside them.
    const specific = (details as AjvError[]).filter(
      (detail) => detail.keyword !== 'oneOf' && detail.keyword !== 'anyOf' && detail.params?.missingProperty !== '$ref',
    );
    return boundErrors(
      (specific.length > 0 ? specific : (details as AjvError[])).map((detail) => ({
        message: `${detail.instancePath || '/'} ${detail.message ?? 'is not valid'}`,
        ...(detail.keyword ? { code: detail.keyword } : {}),
      })),
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return [{ message: rename(message.split('\n')[0] ?? message), code: 'INVALID' }];
}

async function validate(
  files: ReadonlyMap<string, unknown>,
  entry: string,
  rename: (message: string) => string,
): Promise<SpecProcessError[]> {
  const api = files.get(entry) as object;
  const options: SwaggerParser.Options = {
    resolve: {
      file: false,
      http: false,
      external: true,
      // The fetched set is the whole world: a file not in it was never asked for, so never read.
      fetched: {
        order: 1,
        canRead: true,
        read: (file: { url: string }) => {
          const found = files.get(file.url) ?? files.get(new URL(file.url).href);
          if (found === undefined) throw new Error(`${rename(file.url)} is not one of the spec's files`);
          return found as never;
        },
      },
    },
    // Files arrive parsed: the JSON parser passes objects through; no other parser is needed.
    parse: { yaml: false, text: false, binary: false },
    // Circular references stay references: the spec is only validated, never handed out dereferenced.
    dereference: { circular: 'ignore' },
  };
  try {
    if (expandedSize(files, entry, EXPANSION_LIMIT) <= EXPANSION_LIMIT) {
      await new SwaggerParser().validate(entry, api as never, options);
    } else {
      await new SwaggerParser().parse(entry, api as never, options);
      validateAgainstSchema(api);
    }
    return [];
  } catch (error) {
    return validationErrors(error, rename);
  }
}

async function build(input: BuildInput): Promise<BuildResult> {
  const parsed = new Map<string, unknown>();
  const names = new Map(input.files.map((file) => [file.url, file.path]));
  const nameOf = (url: string) => names.get(url) ?? url;
  // Messages name files by their paths, never by the internal address of a spec given as text.
  const rename = (message: string) => message.replaceAll(input.entry, nameOf(input.entry));
  let format: SpecFormat = 'json';
  try {
    for (const file of input.files) {
      const read = parseSpecFile(file.text, file.path);
      parsed.set(file.url, read.value);
      if (file.url === input.entry) format = read.format;
    }
    specKind(parsed.get(input.entry), nameOf(input.entry));
  } catch (error) {
    if (error instanceof SpecFileError) return { valid: false, errors: [{ message: error.message }] };
    throw error;
  }
  const broken = brokenRefs(parsed, nameOf);
  if (broken.length > 0) return { valid: false, errors: boundErrors(broken) };

  // All of this before validating: swagger-parser rewrites the documents it dereferences.
  const outline = JSON.stringify(outlineOf(parsed, input.entry));
  const hash = contentHash(input.files.map((file) => ({ path: file.path, value: parsed.get(file.url) })));
  const filesystem = JSON.stringify({
    entrypoint: nameOf(input.entry),
    files: input.files.map((file) => ({
      path: file.path,
      isEntrypoint: file.url === input.entry,
      specification: parsed.get(file.url),
    })),
  });

  const errors = await validate(parsed, input.entry, rename);
  if (errors.length > 0) return { valid: false, errors };
  return { valid: true, format, filesystem, hash, outline };
}

/** The task module's entry: says the task started (its deadline counts from there), then runs it. */
export default async function runSpecTask({ task, data, started }: TaskRequest): Promise<TaskOutcome<unknown>> {
  started.postMessage(null);
  started.close();
  try {
    if (task === 'listRefs') return { ok: true, value: listRefs(data as ListRefsInput) };
    if (task === 'build') return { ok: true, value: await build(data as BuildInput) };
  } catch (error) {
    // Input nested past what a parser's own recursion takes.
    if (error instanceof RangeError) return { ok: false, refused: 'nests too deeply to be read' };
    throw error;
  }
  throw new Error(`No task ${task} in this module`);
}
