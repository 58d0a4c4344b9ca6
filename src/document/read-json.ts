import { BadRequestError } from '../core/api-errors.js';

/**
 * Reading a JSON document sent by an API caller: every field is checked as it
 * is read, and a malformed one is a 400 that names where it is
 * (`document.nodes[2].nodes[0].type`).
 */

export type JsonObject = Record<string, unknown>;

/** Where a value sits in the document, and how deep. */
export interface At {
  path: string;
  depth: number;
}

/** Deeper than any real document; a bound so hostile nesting is refused, not a stack overflow. */
const MAX_DEPTH = 64;

export const DOCUMENT_ROOT: At = { path: 'document', depth: 0 };

export function fail(at: At, problem: string): never {
  throw new BadRequestError(`${at.path} ${problem}`);
}

export function field(at: At, name: string): At {
  return { path: `${at.path}.${name}`, depth: at.depth };
}

function item(at: At, index: number): At {
  if (at.depth >= MAX_DEPTH) fail(at, `nests more than ${MAX_DEPTH} levels deep`);
  return { path: `${at.path}[${index}]`, depth: at.depth + 1 };
}

export function asObject(value: unknown, at: At): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(at, 'must be an object');
  return value as JsonObject;
}

export function asString(value: unknown, at: At): string {
  if (typeof value !== 'string') fail(at, 'must be a string');
  return value;
}

export function optionalString(value: unknown, at: At): string | undefined {
  return value === undefined ? undefined : asString(value, at);
}

/** The objects in `node[name]`, each with where it sits; an absent list is empty only when `required` is false. */
export function childObjects(node: JsonObject, at: At, name: string, required = true): Array<[JsonObject, At]> {
  const list = node[name];
  const listAt = field(at, name);
  if (list === undefined && !required) return [];
  if (!Array.isArray(list)) fail(listAt, 'must be an array');
  return list.map((child, index) => {
    const childAt = item(listAt, index);
    return [asObject(child, childAt), childAt];
  });
}

/** A node's `type`, which every block and inline must have. */
export function nodeType(node: JsonObject, at: At): string {
  if (typeof node.type !== 'string' || node.type === '')
    fail(at, 'has no "type": every block and inline node needs one');
  return node.type;
}
