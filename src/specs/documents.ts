/**
 * Reading the files of a spec: parsing, their $refs, their canonical form
 * and their outline. Pure functions over parsed JSON, run on the parser's
 * worker threads (parser-tasks.ts), never on the event loop. Every walk over
 * a document is iterative, so that nesting costs memory, not stack.
 */
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import type { SpecProcessError } from '../db/types.js';
import { OUTLINE_LIMITS, type SpecOutline, type SpecOutlineOperation, type SpecOutlineTag } from './outline.js';

export type SpecFormat = 'json' | 'yaml';

/** What a spec's file says wrong, for the spec's `lastProcessedErrors`. */
export class SpecFileError extends Error {}

/** The most errors a processing records, and the longest message of one. */
export const MAX_ERRORS = 20;
const MAX_ERROR_LENGTH = 500;

export function boundErrors(errors: SpecProcessError[]): SpecProcessError[] {
  const seen = new Set<string>();
  const bounded: SpecProcessError[] = [];
  for (const error of errors) {
    const message =
      error.message.length > MAX_ERROR_LENGTH ? `${error.message.slice(0, MAX_ERROR_LENGTH - 1)}…` : error.message;
    if (seen.has(message)) continue;
    seen.add(message);
    bounded.push(error.code ? { message, code: error.code } : { message });
    if (bounded.length === MAX_ERRORS) break;
  }
  return bounded;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** The first character that is not white space (or a byte-order mark), without copying the text. */
function firstCharacter(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t' && c !== '\uFEFF') return c;
  }
  return '';
}

/**
 * A file of a spec, parsed: as JSON when it looks like JSON, else as YAML
 * (aliases bounded, so that a few lines cannot expand to gigabytes).
 */
export function parseSpecFile(text: string, name: string): { format: SpecFormat; value: unknown } {
  const first = firstCharacter(text);
  if (first === '') throw new SpecFileError(`${name} is empty`);
  let jsonError: Error | undefined;
  if (first === '{' || first === '[') {
    try {
      return { format: 'json', value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
    } catch (error) {
      // YAML's flow style looks like JSON: `{a: 1}` is YAML; the JSON error says more if YAML fails too.
      jsonError = error as Error;
    }
  }
  try {
    return { format: 'yaml', value: parseYaml(text, { maxAliasCount: 100, logLevel: 'error' }) as unknown };
  } catch (error) {
    const reason = (jsonError ?? (error as Error)).message.split('\n')[0];
    throw new SpecFileError(`${name} is not valid ${jsonError ? 'JSON' : 'YAML'}: ${reason}`);
  }
}

/** Every object in `root` (itself included), depth first, without recursion. */
function* objectsIn(root: unknown): Generator<Json> {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!isObject(value)) continue;
    yield value;
    for (const child of Array.isArray(value) ? value : Object.values(value)) if (isObject(child)) stack.push(child);
  }
}

/** The $ref strings of a document, in no particular order. */
function refsIn(document: unknown): string[] {
  const refs: string[] = [];
  for (const node of objectsIn(document)) {
    if (!Array.isArray(node) && typeof node.$ref === 'string') refs.push(node.$ref);
  }
  return refs;
}

function isAbsoluteUrl(ref: string): boolean {
  try {
    new URL(ref);
    return true;
  } catch {
    return false;
  }
}

/** The file (absolute URL, no fragment) and JSON pointer a $ref names, read from the file at `base`. */
function targetOf(ref: string, base: string): { file: string; pointer: string } | undefined {
  if (ref.startsWith('#')) return { file: base, pointer: safeDecode(ref.slice(1)) };
  let url: URL;
  try {
    url = new URL(ref, base);
  } catch {
    return undefined;
  }
  const pointer = safeDecode(url.hash.slice(1));
  url.hash = '';
  return { file: url.href, pointer };
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * The other files a file's $refs name, as absolute http(s) URLs without
 * fragments, and what is wrong with the refs that cannot be followed: a
 * scheme other than http(s) (`file:` above all), or a relative ref in a spec
 * given as text, which has no address to resolve it from.
 */
export function externalRefs(
  document: unknown,
  base: string,
  name: string,
  relativeAllowed: boolean,
): { refs: string[]; problems: SpecProcessError[] } {
  const refs = new Set<string>();
  const problems: SpecProcessError[] = [];
  for (const ref of refsIn(document)) {
    if (ref.startsWith('#')) continue;
    if (!relativeAllowed && !isAbsoluteUrl(ref)) {
      problems.push({
        message: `The $ref "${ref}" in ${name} is relative, and a spec given as text has no address to resolve it from: use an absolute https URL`,
        code: 'REF_RELATIVE',
      });
      continue;
    }
    const target = targetOf(ref, base);
    if (!target) {
      problems.push({ message: `The $ref "${ref}" in ${name} is not a valid reference`, code: 'REF_INVALID' });
      continue;
    }
    const protocol = new URL(target.file).protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      problems.push({
        message: `The $ref "${ref}" in ${name} names a ${protocol} URL; only http and https files are read`,
        code: 'REF_SCHEME',
      });
      continue;
    }
    if (target.file !== base) refs.add(target.file);
  }
  return { refs: [...refs], problems };
}

/** The parsed files of a spec, by absolute URL. */
export type SpecFiles = ReadonlyMap<string, unknown>;

/** The value a JSON pointer names in a file, following the $refs met on the way; undefined when it names nothing. */
export function resolvePointer(
  files: SpecFiles,
  file: string,
  pointer: string,
  hops = 0,
): { value: unknown; base: string } | undefined {
  if (hops > 20 || !files.has(file)) return undefined;
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  let value = files.get(file);
  let base = file;
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
  for (const raw of tokens) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(value)) return undefined;
    let container: Json = value;
    if (!Object.hasOwn(container, token) && typeof container.$ref === 'string') {
      const followed = follow(files, container.$ref, base, hops + 1);
      if (!followed || !isObject(followed.value)) return undefined;
      container = followed.value;
      base = followed.base;
    }
    if (!Object.hasOwn(container, token)) return undefined;
    value = container[token];
  }
  return { value, base };
}

function follow(files: SpecFiles, ref: string, base: string, hops: number) {
  const target = targetOf(ref, base);
  return target ? resolvePointer(files, target.file, target.pointer, hops) : undefined;
}

/** The value itself, or what its $ref (and theirs) names; undefined when a $ref names nothing. */
function dereferenced(files: SpecFiles, value: unknown, base: string): { value: unknown; base: string } | undefined {
  let current = { value, base };
  for (let hops = 0; isObject(current.value) && typeof current.value.$ref === 'string'; hops++) {
    if (hops > 20) return undefined;
    const next = follow(files, current.value.$ref, current.base, 0);
    if (!next) return undefined;
    current = next;
  }
  return current;
}

/** The $refs, in any file, that name nothing. */
export function brokenRefs(files: SpecFiles, nameOf: (url: string) => string): SpecProcessError[] {
  const problems: SpecProcessError[] = [];
  for (const [file, document] of files) {
    for (const ref of refsIn(document)) {
      if (!follow(files, ref, file, 0)) {
        problems.push({ message: `The $ref "${ref}" in ${nameOf(file)} points to nothing`, code: 'REF_MISSING' });
        if (problems.length >= MAX_ERRORS) return problems;
      }
    }
  }
  return problems;
}

/**
 * How many values the spec would hold with every $ref replaced by what it
 * names (a ref met again inside itself counts once): what validating a
 * dereferenced spec costs. A linked set of schemas can make this grow
 * exponentially with the spec's size; the count stops past `limit`.
 */
export function expandedSize(files: SpecFiles, entry: string, limit: number): number {
  interface Frame {
    node: Json;
    base: string;
    children: unknown[];
    next: number;
    total: number;
  }
  const sizes = new Map<Json, number>();
  const open = new Set<Json>();
  const frameOf = (node: Json, base: string): Frame => {
    open.add(node);
    return { node, base, children: Array.isArray(node) ? node : Object.values(node), next: 0, total: 1 };
  };
  const root = files.get(entry);
  if (!isObject(root)) return 1;
  const stack: Frame[] = [frameOf(root, entry)];
  let result = 0;
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++];
      if (!isObject(child)) {
        frame.total += 1;
        continue;
      }
      let target: Json = child;
      let base = frame.base;
      if (typeof child.$ref === 'string') {
        const named = dereferenced(files, child, frame.base);
        if (!named || !isObject(named.value)) {
          frame.total += 1;
          continue;
        }
        target = named.value;
        base = named.base;
      }
      const known = sizes.get(target);
      if (known !== undefined) frame.total += known;
      else if (open.has(target)) frame.total += 1;
      else stack.push(frameOf(target, base));
      if (frame.total > limit) return limit + 1;
      continue;
    }
    stack.pop();
    open.delete(frame.node);
    sizes.set(frame.node, frame.total);
    const parent = stack.at(-1);
    if (parent) {
      parent.total += frame.total;
      if (parent.total > limit) return limit + 1;
    } else result = frame.total;
  }
  return result;
}

/** JSON with every object's keys sorted: two files that say the same thing read the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (!isObject(item) || Array.isArray(item)) return item;
    const sorted: Json = {};
    for (const key of Object.keys(item).sort()) sorted[key] = item[key];
    return sorted;
  });
}

/** The hash a version is compared by: of every file's canonical JSON, in the order of their paths. */
export function contentHash(files: ReadonlyArray<{ path: string; value: unknown }>): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(file.path).update('\0').update(canonicalJson(file.value)).update('\0');
  }
  return hash.digest('hex');
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function shortText(value: unknown, max: number = OUTLINE_LIMITS.shortText): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** The outline of a spec: its info, tags and operations, bounded (OUTLINE_LIMITS). */
export function outlineOf(files: SpecFiles, entry: string): SpecOutline {
  const document = files.get(entry);
  const root: Json = isObject(document) ? document : {};
  const at = (value: unknown, base: string) => dereferenced(files, value, base);

  const info = at(root.info, entry)?.value;
  const infoObject: Json = isObject(info) ? info : {};
  const description = shortText(infoObject.description, OUTLINE_LIMITS.description);
  const outline: SpecOutline = {
    info: {
      title: shortText(infoObject.title) ?? '',
      version: shortText(infoObject.version) ?? '',
      ...(description !== undefined ? { description } : {}),
    },
    tags: [],
    operations: [],
    operationCount: 0,
  };

  const tags = Array.isArray(root.tags) ? root.tags : [];
  for (const tag of tags.slice(0, OUTLINE_LIMITS.tags)) {
    const value = at(tag, entry)?.value;
    if (!isObject(value) || typeof value.name !== 'string') continue;
    const item: SpecOutlineTag = { name: shortText(value.name)! };
    const tagDescription = shortText(value.description, OUTLINE_LIMITS.description);
    if (tagDescription !== undefined) item.description = tagDescription;
    outline.tags.push(item);
  }

  // Reusable schemas: OpenAPI 3's components.schemas, Swagger 2's definitions.
  const components = at(root.components, entry)?.value;
  const schemas = at(isObject(components) ? components.schemas : root.definitions, entry)?.value;
  if (isObject(schemas)) {
    outline.schemas = Object.entries(schemas)
      .slice(0, OUTLINE_LIMITS.schemas)
      .map(([name, schema]) => {
        const schemaDescription = isObject(schema)
          ? shortText(schema.description, OUTLINE_LIMITS.description)
          : undefined;
        return {
          name: shortText(name)!,
          ...(schemaDescription !== undefined ? { description: schemaDescription } : {}),
        };
      });
  }

  const paths = at(root.paths, entry);
  if (!paths || !isObject(paths.value)) return outline;
  for (const [path, rawItem] of Object.entries(paths.value)) {
    const item = at(rawItem, paths.base);
    const pathItem = item?.value;
    if (!item || !isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = at(pathItem[method], item.base)?.value;
      if (!isObject(operation)) continue;
      outline.operationCount += 1;
      if (outline.operations.length >= OUTLINE_LIMITS.operations) continue;
      const entryOf: SpecOutlineOperation = {
        path: shortText(path)!,
        method,
        tags: (Array.isArray(operation.tags) ? operation.tags : [])
          .filter((tag): tag is string => typeof tag === 'string')
          .slice(0, OUTLINE_LIMITS.tagsPerOperation)
          .map((tag) => shortText(tag)!),
        deprecated: operation.deprecated === true,
      };
      const operationId = shortText(operation.operationId);
      const summary = shortText(operation.summary);
      const operationDescription = shortText(operation.description, OUTLINE_LIMITS.description);
      if (operationId !== undefined) entryOf.operationId = operationId;
      if (summary !== undefined) entryOf.summary = summary;
      if (operationDescription !== undefined) entryOf.description = operationDescription;
      outline.operations.push(entryOf);
    }
  }
  return outline;
}

/**
 * Which kind of spec the entry file is, or why it is none: the first check,
 * so that an HTML page or a JSON file of something else says so plainly.
 */
export function specKind(document: unknown, name: string): 'openapi' | 'swagger' {
  if (!isObject(document) || Array.isArray(document)) {
    throw new SpecFileError(`${name} is not an OpenAPI or Swagger document: it is not a JSON or YAML object`);
  }
  if (document.swagger !== undefined) return 'swagger';
  if (document.openapi !== undefined) return 'openapi';
  throw new SpecFileError(
    `${name} is not an OpenAPI or Swagger document: it has neither an "openapi" nor a "swagger" field`,
  );
}
