import type { DocumentTopLevelBlock, JSONDocument } from './types.js';

/** Any node of the document, seen only for what carries a key. */
interface AnyNode {
  object: string;
  nodes?: AnyNode[];
  fragments?: AnyNode[];
  [field: string]: unknown;
}

/**
 * The document with a key on every block, inline, text and fragment: `1`, `2`, …
 * (base 36) in document order, a node before its fragments and its children.
 * Numbering the finished tree, not nodes as they are made, is what makes the
 * keys depend on the document's shape alone, so equal documents have equal keys.
 */
export function withKeys(document: JSONDocument): JSONDocument {
  let count = 0;
  const keyed = (node: AnyNode): AnyNode => {
    const { object, nodes, fragments, ...rest } = node;
    const copy: AnyNode = { object, key: (++count).toString(36), ...rest };
    if (fragments) copy.fragments = fragments.map(keyed);
    if (nodes) copy.nodes = nodes.map(keyed);
    return copy;
  };
  // Every node kind has this shape; the walk only adds `key`.
  const nodes = (document.nodes as unknown as AnyNode[]).map(keyed) as unknown as DocumentTopLevelBlock[];
  return { ...document, nodes };
}
