import { BadRequestError } from '../core/errors.js';
import type { JSONDocument } from '../document/index.js';
import { readIncludeTag, reusableContentOf } from '../document/include.js';

/**
 * The spec's `dereferenced` query parameter: `true` resolves every reference
 * to other content, `reusable-contents` only reusable contents. Reusable
 * contents are the only references here whose content lives elsewhere (a
 * link to a page stays a link), so both expand them where they are included.
 */
export type Dereferenced = 'true' | 'false' | 'reusable-contents';

export const dereferences = (value: Dereferenced | undefined): boolean =>
  value === 'true' || value === 'reusable-contents';

/** How deep reusable contents included in reusable contents are expanded; deeper ones stay references. */
const MAX_DEPTH = 4;
/**
 * Nodes a dereference may visit, the document's own and those it includes,
 * past which the read is refused rather than answered that large: a reusable
 * content included many times, in one included many times, multiplies.
 */
export const MAX_DEREFERENCED_NODES = 250_000;

type Node = { object?: unknown; type?: unknown; data?: unknown; nodes?: unknown };

function includedId(node: Node): string | undefined {
  if (node.object !== 'block' || node.type !== 'reusable-content') return undefined;
  const ref = (node.data as { ref?: { kind?: unknown; reusableContent?: unknown; space?: unknown } } | undefined)?.ref;
  if (ref?.kind !== 'reusable-content' || ref.space !== undefined || typeof ref.reusableContent !== 'string')
    return undefined;
  return ref.reusableContent;
}

/** Whether the document includes a reusable content of this space anywhere: a linear walk, that allocates nothing. */
function includesAny(nodes: unknown[]): boolean {
  return nodes.some((node) => {
    if (typeof node !== 'object' || node === null) return false;
    if (includedId(node) !== undefined) return true;
    const children = (node as Node).nodes;
    return Array.isArray(children) && includesAny(children);
  });
}

/**
 * The document with each reusable-content block of this space replaced by
 * the blocks of the reusable content it names (`documentOf`), those expanded
 * too, up to MAX_DEPTH; a reusable content that includes itself, or one the
 * revision lacks, stays a reference. New objects where something changed:
 * the given ones are cached and shared.
 */
export function dereferenceDocument(
  document: JSONDocument,
  documentOf: (reusableContentId: string) => JSONDocument | undefined,
  field: string,
): JSONDocument {
  if (!includesAny(document.nodes)) return document;
  let visited = 0;
  const expand = (nodes: unknown[], within: readonly string[]): unknown[] =>
    nodes.flatMap((node) => {
      if (++visited > MAX_DEREFERENCED_NODES)
        throw new BadRequestError(
          `The dereferenced ${field} would hold more than ${MAX_DEREFERENCED_NODES} nodes; read it without dereferenced`,
        );
      if (typeof node !== 'object' || node === null) return [node];
      const id = includedId(node);
      if (id !== undefined) {
        const included = within.length < MAX_DEPTH && !within.includes(id) ? documentOf(id) : undefined;
        return included ? expand(included.nodes, [...within, id]) : [node];
      }
      const children = (node as Node).nodes;
      return Array.isArray(children) ? [{ ...node, nodes: expand(children, within) }] : [node];
    });
  return { ...document, nodes: expand(document.nodes, []) as JSONDocument['nodes'] };
}

const INCLUDE_START = '{% include ';
const TAG_END = '%}';

/**
 * The markdown with each `{% include "/reusable-contents/<id>" %}` of this
 * space replaced by that reusable content's markdown (`markdownOf`), expanded
 * the same way, in one pass over each text, into one output of at most
 * `maxLength` characters.
 */
export function dereferenceMarkdown(
  markdown: string,
  markdownOf: (reusableContentId: string) => string | undefined,
  bound: { maxLength: number; field: string },
): string {
  if (!markdown.includes(INCLUDE_START)) return markdown;
  const out: string[] = [];
  let length = 0;
  const emit = (text: string) => {
    length += text.length;
    if (length > bound.maxLength)
      throw new BadRequestError(
        `The dereferenced markdown of ${bound.field} would be longer than ${bound.maxLength} characters; read it without dereferenced`,
      );
    out.push(text);
  };
  const expand = (text: string, within: readonly string[]): void => {
    let from = 0;
    for (let start = text.indexOf(INCLUDE_START); start !== -1; start = text.indexOf(INCLUDE_START, from)) {
      const end = text.indexOf(TAG_END, start + INCLUDE_START.length);
      if (end === -1) break;
      const tag = readIncludeTag(text.slice(start + INCLUDE_START.length, end));
      const id = tag ? reusableContentOf(tag.path) : null;
      const included = id && within.length < MAX_DEPTH && !within.includes(id) ? markdownOf(id) : undefined;
      emit(text.slice(from, start));
      if (included === undefined) emit(text.slice(start, end + TAG_END.length));
      else expand(included.trimEnd(), [...within, id!]);
      from = end + TAG_END.length;
    }
    emit(text.slice(from));
  };
  expand(markdown, []);
  return out.join('');
}

/** The reusable contents of this space the nodes include, at any depth of the document (not through them). */
export function includedInDocument(document: JSONDocument): Set<string> {
  const ids = new Set<string>();
  const walk = (nodes: unknown[]) => {
    for (const node of nodes) {
      if (typeof node !== 'object' || node === null) continue;
      const id = includedId(node);
      if (id !== undefined) ids.add(id);
      const children = (node as Node).nodes;
      if (Array.isArray(children)) walk(children);
    }
  };
  walk(document.nodes);
  return ids;
}

/** The reusable contents of this space the markdown's include tags name. */
export function includedInMarkdown(markdown: string): Set<string> {
  const ids = new Set<string>();
  for (let start = markdown.indexOf(INCLUDE_START); start !== -1;) {
    const end = markdown.indexOf(TAG_END, start + INCLUDE_START.length);
    if (end === -1) break;
    const tag = readIncludeTag(markdown.slice(start + INCLUDE_START.length, end));
    const id = tag ? reusableContentOf(tag.path) : null;
    if (id) ids.add(id);
    start = markdown.indexOf(INCLUDE_START, end + TAG_END.length);
  }
  return ids;
}

/**
 * The content of the reusable contents `roots` include, and of those they
 * include, down to MAX_DEPTH: loaded a level at a time (`load` takes a level's
 * reusable contents at once), never one by one.
 */
export async function loadIncluded<Content>(
  roots: Iterable<Content>,
  includedIn: (content: Content) => Set<string>,
  load: (ids: readonly string[]) => Promise<ReadonlyMap<string, Content>>,
): Promise<(reusableContentId: string) => Content | undefined> {
  const loaded = new Map<string, Content>();
  let wanted = new Set<string>();
  for (const root of roots) for (const id of includedIn(root)) wanted.add(id);
  for (let depth = 0; depth < MAX_DEPTH && wanted.size > 0; depth++) {
    const level = await load([...wanted]);
    wanted = new Set();
    for (const [id, content] of level) loaded.set(id, content);
    for (const content of level.values()) for (const id of includedIn(content)) if (!loaded.has(id)) wanted.add(id);
  }
  return (id) => loaded.get(id);
}
