import type { JSONDocument } from '../document/types.js';

/** What a document points at that only the reader's caller can resolve: pages (of this or another space) and files. */
export interface DocumentReferences {
  /** Page ids, with the space named when the reference names one. */
  pages: Array<{ page: string; space?: string }>;
  files: string[];
  /** The expressions of its `if` blocks, which the reader evaluates for each visitor. */
  conditions: string[];
  /** The slugs of the OpenAPI specs its blocks show. */
  specs: string[];
  /** The reusable contents it includes. */
  reusableContents: string[];
}

interface Found {
  pages: Map<string, { page: string; space?: string }>;
  files: Set<string>;
  conditions: Set<string>;
  specs: Set<string>;
  reusableContents: Set<string>;
}

/**
 * The pages, files, conditions and specs a document refers to, found in one
 * walk of its nodes, so that the caller resolves only those (a space may hold
 * thousands of pages; a document links a handful). A reference is any
 * block's or inline's `ref` or `refDark` (links, images and their dark
 * variants, content-refs, buttons, mentions), and any value of a table's
 * records: card targets and covers, content-ref and file columns.
 */
export function documentReferences(document: JSONDocument): DocumentReferences {
  const found: Found = {
    pages: new Map(),
    files: new Set(),
    conditions: new Set(),
    specs: new Set(),
    reusableContents: new Set(),
  };
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    const { type, data, nodes, fragments } = node as {
      type?: unknown;
      data?: Record<string, unknown>;
      nodes?: unknown;
      fragments?: unknown;
    };
    if (data) {
      addRef(found, data.ref);
      addRef(found, data.refDark);
      if (type === 'if' && typeof data.expression === 'string') found.conditions.add(data.expression);
      if (type === 'table') addTableRefs(found, data);
    }
    if (nodes !== undefined) pending.push(nodes);
    if (fragments !== undefined) pending.push(fragments);
  }
  return {
    pages: [...found.pages.values()],
    files: [...found.files],
    conditions: [...found.conditions],
    specs: [...found.specs],
    reusableContents: [...found.reusableContents],
  };
}

function addRef(found: Found, value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const ref = value as {
    kind?: unknown;
    page?: unknown;
    space?: unknown;
    file?: unknown;
    spec?: unknown;
    reusableContent?: unknown;
  };
  if ((ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string') {
    const space = typeof ref.space === 'string' ? ref.space : undefined;
    found.pages.set(`${space ?? ''}/${ref.page}`, space ? { page: ref.page, space } : { page: ref.page });
  }
  if (ref.kind === 'file' && typeof ref.file === 'string') found.files.add(ref.file);
  if (ref.kind === 'openapi' && typeof ref.spec === 'string') found.specs.add(ref.spec);
  // Another space's reusable content is not the reader's to show.
  if (ref.kind === 'reusable-content' && typeof ref.reusableContent === 'string' && ref.space === undefined)
    found.reusableContents.add(ref.reusableContent);
}

/** A table's record values: references (card targets, content-ref columns), images ({ ref }) and file columns' ids. */
function addTableRefs(found: Found, data: Record<string, unknown>): void {
  const definition = (data.definition ?? {}) as Record<string, { type?: unknown } | undefined>;
  const records = data.records;
  if (typeof records !== 'object' || records === null) return;
  for (const record of Object.values(records as Record<string, { values?: unknown }>)) {
    const values = record?.values;
    if (typeof values !== 'object' || values === null) continue;
    for (const [column, value] of Object.entries(values as Record<string, unknown>)) {
      if (Array.isArray(value)) {
        const isFiles = Object.hasOwn(definition, column) && definition[column]?.type === 'files';
        if (isFiles) for (const id of value) if (typeof id === 'string') found.files.add(id);
      } else if (typeof value === 'object' && value !== null) {
        addRef(found, value);
        addRef(found, (value as { ref?: unknown }).ref);
      }
    }
  }
}

/** The references of several documents (a page and the contents it includes), each named once. */
export function mergeReferences(list: DocumentReferences[]): DocumentReferences {
  const unique = (values: string[]) => [...new Set(values)];
  const pages = new Map(list.flatMap((found) => found.pages).map((ref) => [`${ref.space ?? ''}/${ref.page}`, ref]));
  return {
    pages: [...pages.values()],
    files: unique(list.flatMap((found) => found.files)),
    conditions: unique(list.flatMap((found) => found.conditions)),
    specs: unique(list.flatMap((found) => found.specs)),
    reusableContents: unique(list.flatMap((found) => found.reusableContents)),
  };
}
