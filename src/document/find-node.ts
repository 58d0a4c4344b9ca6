import type { JSONDocument } from './types.js';

/** Any node of a document, seen only for its key and what it holds. */
interface AnyNode {
  object?: string;
  key?: string;
  text?: string;
  nodes?: AnyNode[];
  fragments?: AnyNode[];
  leaves?: AnyNode[];
}

/** What a node holds: its child nodes, then its fragments (a tab's content, a table cell's). */
const childrenOf = (node: AnyNode): AnyNode[] => [...(node.nodes ?? []), ...(node.fragments ?? [])];

/** The node (block, inline or text) with this key, if the document has one. A loop: documents nest deep. */
export function findNodeByKey(document: JSONDocument, key: string): object | undefined {
  const pending = [...(document.nodes as unknown as AnyNode[])];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.key === key) return node;
    pending.push(...childrenOf(node));
  }
  return undefined;
}

/** The text a reader sees in a node, blocks joined by a space, cut at `max` characters. */
export function nodeText(node: object, max: number): string {
  const parts: string[] = [];
  let length = 0;
  // A stack, the next node on top: taking from and putting back at the front of an array is
  // linear each time, and a block of many children (a long table) made the walk quadratic.
  const pending: AnyNode[] = [node];
  while (pending.length > 0 && length < max) {
    const current = pending.pop()!;
    if (current.leaves) {
      for (const leaf of current.leaves) {
        parts.push(leaf.text ?? '');
        length += leaf.text?.length ?? 0;
      }
      continue;
    }
    const children = childrenOf(current);
    if (children.length > 0 && parts.length > 0) parts.push(' ');
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]!);
  }
  const text = parts.join('').replaceAll(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** How much of a block's text a quote is looked for in: more than any selection a comment names. */
const QUOTED_BLOCK_TEXT = 200_000;

/**
 * The key of the innermost block whose text holds `quote` (text a reader
 * selected, spaced as the reader shows it), in the first top-level block that
 * holds it, or undefined: a list item or a table cell rather than the whole
 * list or table. A selection across blocks is found by its first line, in
 * the block it starts in.
 */
export function blockQuoting(document: JSONDocument, quote: string): string | undefined {
  const spaced = (text: string) => text.replaceAll(/\s+/g, ' ').trim();
  const wanted = [spaced(quote), spaced(quote.split('\n').find((line) => line.trim() !== '') ?? '')];
  for (const text of wanted) {
    if (!text) continue;
    for (const node of document.nodes as unknown as AnyNode[]) {
      if (node.key && nodeText(node, QUOTED_BLOCK_TEXT).includes(text)) return innermostBlock(node, text);
    }
  }
  return undefined;
}

/**
 * The deepest block under `block` (itself included) whose text holds `text`,
 * through the fragments (tabs, the sides of a stepper) on the way. Each level
 * reads its children's text once at most, and documents nest only so deep.
 */
function innermostBlock(block: AnyNode, text: string): string {
  let found = block.key!;
  let current: AnyNode = block;
  for (;;) {
    const inner = childrenOf(current).find(
      (child) =>
        (child.object === 'block' || child.object === 'fragment') && nodeText(child, QUOTED_BLOCK_TEXT).includes(text),
    );
    if (!inner) return found;
    if (inner.object === 'block' && inner.key) found = inner.key;
    current = inner;
  }
}
