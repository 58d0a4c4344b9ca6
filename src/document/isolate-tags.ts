import type {
  Blockquote,
  BlockContent,
  DefinitionContent,
  FootnoteDefinition,
  Html,
  ListItem,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableRow,
} from 'mdast';
import { isWrapper, tagOf, tagOfLine, WRAPPERS, type OpenerKind } from './block-tags.js';
import { readDetailsTags } from './details.js';
import { MAX_NESTING, parseMarkdownFragment } from './markdown-tree.js';

/**
 * Block tags are written with no blank line around them, so the parser
 * reads a `{% … %}` tag as a line of the paragraph next to it, of a list
 * item or quote before it (lazily continued), or as a row of a table before
 * it, and `<details>` tags as one HTML block with the markdown after them.
 * This rewrites the tree so that every tag is a block of its own, at the
 * level it applies to (group-tags.ts then pairs them).
 */

type FlowContent = BlockContent | DefinitionContent;

interface Line {
  nodes: PhrasingContent[];
  /** What ended the line: a soft break (`\n` in a text) or a hard break; null for the last line. */
  end: PhrasingContent | null;
}

/** A paragraph's content cut at its line breaks. */
function phrasingLines(children: PhrasingContent[]): Line[] {
  const lines: Line[] = [{ nodes: [], end: null }];
  const endLine = (end: PhrasingContent) => {
    lines.at(-1)!.end = end;
    lines.push({ nodes: [], end: null });
  };
  for (const child of children) {
    if (child.type === 'break') endLine(child);
    else if (child.type !== 'text') lines.at(-1)!.nodes.push(child);
    else
      child.value.split(/\r\n|\r|\n/).forEach((part, index) => {
        if (index > 0) endLine({ type: 'text', value: '\n' });
        if (part !== '') lines.at(-1)!.nodes.push({ type: 'text', value: part });
      });
  }
  return lines;
}

/** The paragraph as paragraphs of its own for each tag line and for the lines between them. */
function splitAtTags(paragraph: Paragraph): Paragraph[] {
  const lines = phrasingLines(paragraph.children);
  if (!lines.some((line) => tagOfLine(line.nodes) !== null)) return [paragraph];
  const paragraphs: Paragraph[] = [];
  let pending: Line[] = [];
  const flush = () => {
    // The break that ended the last pending line ended it before a tag: it has no place in the paragraph.
    const children = pending.flatMap((line, index) =>
      index < pending.length - 1 && line.end ? [...line.nodes, line.end] : line.nodes,
    );
    if (children.length > 0) paragraphs.push({ type: 'paragraph', children });
    pending = [];
  };
  for (const line of lines) {
    if (tagOfLine(line.nodes) === null) {
      pending.push(line);
      continue;
    }
    flush();
    paragraphs.push({ type: 'paragraph', children: line.nodes });
  }
  flush();
  return paragraphs;
}

/** The kind of tag a block opens, that a closing tag further on may close. */
function opener(node: RootContent): OpenerKind | null {
  const tag = tagOf(node);
  if (!tag || tag.kind === 'close' || tag.kind === 'summary') return null;
  if (isWrapper(tag)) return tag.caption === null && WRAPPERS[tag.kind].body !== 'none' ? tag.kind : null;
  return tag.kind;
}

/**
 * A closing tag right after a list or quote is read as a lazy continuation
 * of its last paragraph, and so is any text after it. When it closes no tag
 * opened inside, it ends the container: take it, and what follows it, out.
 */
function liftFromUnmatchedClose(container: { children: FlowContent[] }): FlowContent[] {
  const open = new Map<OpenerKind, number>();
  for (const [index, child] of container.children.entries()) {
    const kind = opener(child);
    const tag = kind ? null : tagOf(child);
    if (kind) open.set(kind, (open.get(kind) ?? 0) + 1);
    else if (tag?.kind === 'close' && (open.get(tag.of) ?? 0) > 0) open.set(tag.of, open.get(tag.of)! - 1);
    else if (tag?.kind === 'close') return container.children.splice(index);
  }
  return [];
}

/** A row whose first cell is a tag line and whose other cells are empty: a tag line read as a row. */
function rowTag(row: TableRow): ReturnType<typeof tagOfLine> {
  const [first, ...others] = row.children;
  return first && others.every((cell) => cell.children.length === 0) ? tagOfLine(first.children) : null;
}

/**
 * Lines after a table are read as more rows of it until a blank line. From
 * the first closing tag among them on, they were meant as what follows the
 * table: take them out as paragraphs, a tag line as its tag.
 */
function liftRowsFromClose(table: Table): Paragraph[] {
  const from = table.children.findIndex((row, index) => index > 0 && rowTag(row)?.kind === 'close');
  if (from === -1) return [];
  return table.children.splice(from).map((row) => ({
    type: 'paragraph',
    children: row.children
      .filter((cell) => cell.children.length > 0)
      .flatMap((cell, index) => (index === 0 ? cell.children : [{ type: 'text', value: ' | ' }, ...cell.children])),
  }));
}

/**
 * Markdown pieces of HTML blocks parsed per page, at most. Each parse costs
 * a fixed setup besides its text; real pages have a few, and past this many
 * the pieces stay HTML, as they were to the parser.
 */
export const MAX_HTML_FRAGMENTS = 1_000;

interface Context {
  depth: number;
  /** Whether HTML blocks are read for `<details>` tags: not in markdown already taken out of one. */
  readsHtml: boolean;
  /** Shared by the whole page: how many more pieces of HTML blocks may be parsed. */
  budget: { fragments: number };
}

/** An HTML block holding `<details>` tags as an HTML block per tag, and the markdown between them parsed. */
function splitAtDetailsTags(html: Html, context: Context): FlowContent[] {
  const pieces = context.readsHtml ? readDetailsTags(html.value) : null;
  if (!pieces) return [html];
  return pieces.flatMap((piece): FlowContent[] => {
    if ('tag' in piece) return [{ type: 'html', value: piece.raw }];
    if (context.budget.fragments <= 0) return [{ type: 'html', value: piece.markdown }];
    context.budget.fragments -= 1;
    // Parsed once: the markdown of a piece holds no tag line, so nothing in it is read again.
    const fragment = parseMarkdownFragment(piece.markdown).children as FlowContent[];
    return isolateInFlow(fragment, { ...context, readsHtml: false });
  });
}

/**
 * An HTML block runs to the next blank line, so a tag written right after
 * GitBook's HTML (`<figure>…</figure>` then `{% endcolumn %}`) is read as a
 * line of it: each such line is taken out as the tag paragraph it is, read as
 * a paragraph would read it, and the HTML around it stays HTML.
 */
function splitAtTagLines(html: Html, context: Context): FlowContent[] {
  const lines = html.value.split(/\r\n|\r|\n/);
  const isTagLine = (line: string) => line.trimStart().startsWith('{%') && line.trimEnd().endsWith('%}');
  if (lines.length < 2 || !lines.some(isTagLine)) return splitAtDetailsTags(html, context);
  const blocks: FlowContent[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length > 0) blocks.push(...splitAtDetailsTags({ type: 'html', value: pending.join('\n') }, context));
    pending = [];
  };
  for (const line of lines) {
    const tag = isTagLine(line) && context.budget.fragments > 0 ? tagParagraph(line, context) : null;
    if (!tag) {
      pending.push(line);
      continue;
    }
    flush();
    blocks.push(tag);
  }
  flush();
  return blocks;
}

function tagParagraph(line: string, context: Context): Paragraph | null {
  context.budget.fragments -= 1;
  const [paragraph, ...rest] = parseMarkdownFragment(line.trim()).children;
  return paragraph?.type === 'paragraph' && rest.length === 0 && tagOf(paragraph) ? paragraph : null;
}

function isolateInFlow<T extends RootContent>(children: T[], context: Context): Array<T | FlowContent> {
  return children.flatMap((child): Array<T | FlowContent> => {
    if (child.type === 'paragraph') return splitAtTags(child);
    if (child.type === 'table') return [child, ...liftRowsFromClose(child)];
    if (child.type === 'html') return splitAtTagLines(child, context);
    // The document keeps no nesting deeper than MAX_NESTING, so tags are not looked for there either.
    if (context.depth >= MAX_NESTING) return [child];
    const inner = { ...context, depth: context.depth + 1 };
    if (child.type === 'blockquote' || child.type === 'footnoteDefinition') {
      isolate(child, inner);
      return [child, ...liftFromUnmatchedClose(child)];
    }
    if (child.type === 'list') {
      for (const item of child.children) isolate(item, inner);
      const last = child.children.at(-1);
      return [child, ...(last ? liftFromUnmatchedClose(last) : [])];
    }
    return [child];
  });
}

function isolate(parent: Root | Blockquote | ListItem | FootnoteDefinition, context: Context): void {
  // Two branches because the root holds more kinds of nodes than the containers do.
  if (parent.type === 'root') parent.children = isolateInFlow(parent.children, context);
  else parent.children = isolateInFlow(parent.children, context);
}

/** Rewrites the parsed page so that every block tag is a block of its own at the level it applies to. */
export function isolateBlockTags(tree: Root): void {
  isolate(tree, { depth: 0, readsHtml: true, budget: { fragments: MAX_HTML_FRAGMENTS } });
}
