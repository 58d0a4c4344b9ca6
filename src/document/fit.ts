import { isEmptyInlineContent, leaf, marksOf, paragraph, textNode } from './build.js';
import { urlFromRef } from './links.js';
import type {
  ContentRef,
  DocumentBlockCode,
  DocumentBlockExpandable,
  DocumentBlockFile,
  DocumentBlockImages,
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentBlockTabs,
  DocumentColumnChild,
  DocumentEssentialBlock,
  DocumentExpandableBodyChild,
  DocumentInlineContent,
  DocumentInlineImage,
  DocumentListItemChild,
  DocumentQuoteChild,
  DocumentTableValue,
  DocumentTabsItemChild,
  DocumentTopLevelBlock,
  DocumentUpdateChild,
} from './types.js';

/**
 * The spec limits what each container holds: a list item takes no image
 * block, a quote only essentials and quotes, a hint only essentials, a tab
 * or a step no table, an expandable no file, and only the page itself holds
 * tabs, expandables, steppers and OpenAPI blocks. Markdown nests anything
 * anywhere, so blocks a container cannot take are turned into ones it can,
 * keeping their text. Where a block is in both specs (@gitbook/api 0.143.2
 * and 0.202.0), its container holds what both let it hold; blocks only the
 * newest spec has (columns, updates, conditions, prompts) follow it.
 */

function imagesAsParagraph(images: DocumentBlockImages): DocumentBlockParagraph {
  const inlines = images.nodes.flatMap((image, index): DocumentInlineContent[] => {
    const inline: DocumentInlineImage = {
      object: 'inline',
      type: 'inline-image',
      data: { ...image.data },
      isVoid: true,
    };
    const caption = image.fragments[0]?.nodes.flatMap((p) => p.nodes);
    if (caption && !isEmptyInlineContent(caption)) inline.data.caption = captionText(caption);
    return index === 0 ? [inline] : [textNode([leaf(' ')]), inline];
  });
  return paragraph(inlines);
}

function captionText(nodes: DocumentInlineContent[]): string {
  return nodes.map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : '')).join('');
}

/** Code as a paragraph of code-marked lines, blank lines at either end left out. */
function codeAsParagraph(code: DocumentBlockCode): DocumentBlockParagraph[] {
  const lines = code.nodes.map((line) => line.nodes.flatMap((t) => t.leaves.map((l) => l.text)).join(''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return [];
  const leaves = lines.flatMap((line, index) => [...(index > 0 ? [leaf('\n')] : []), leaf(line, marksOf(['code']))]);
  return [paragraph([textNode(leaves)])];
}

/** The text of a cell's paragraph or heading; a list in a cell has no place in one line. */
function inlinesOfBlock(block: DocumentEssentialBlock): DocumentInlineContent[] {
  const hasText =
    block.type === 'paragraph' ||
    block.type === 'heading-1' ||
    block.type === 'heading-2' ||
    block.type === 'heading-3';
  return hasText ? block.nodes : [];
}

/**
 * A table as one paragraph per row, header first, cells separated by ` | `.
 * Cards have no header to show, and a card's target becomes a link on its
 * first cell's text, so that a card that led somewhere still does.
 */
function tableAsParagraphs(table: DocumentBlockTable): DocumentBlockParagraph[] {
  const { view, definition, records } = table.data;
  // A cell names its fragment; cards' link and cover cells hold references, which have no text.
  const cellContent = (value: unknown) =>
    table.fragments.find((f) => f.fragment === value)?.nodes.flatMap(inlinesOfBlock) ?? [];
  const header = view.columns.map((column) => [textNode([leaf(definition[column]?.title ?? '')])]);
  const sorted = Object.values(records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
  const rows: DocumentInlineContent[][][] = [
    ...(view.type === 'cards' ? [] : [header]),
    ...sorted.map((record) => {
      const cells = view.columns.map((column) => cellContent(record.values[column]));
      const target = view.type === 'cards' && view.targetDefinition ? record.values[view.targetDefinition] : undefined;
      return isContentRef(target) ? linkFirstCell(cells, target) : cells;
    }),
  ];
  return rows.map((cells) =>
    paragraph(
      cells
        .filter((cell) => view.type !== 'cards' || !isEmptyInlineContent(cell))
        .flatMap((cell, index) => (index === 0 ? cell : [textNode([leaf(' | ')]), ...cell])),
    ),
  );
}

function isContentRef(value: DocumentTableValue | undefined): value is ContentRef {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'kind' in value;
}

/**
 * The cells with the first one holding text made a link to the card's target,
 * labelled with that text; a cell before it holding only an icon stays.
 */
function linkFirstCell(cells: DocumentInlineContent[][], ref: ContentRef): DocumentInlineContent[][] {
  const labels = cells.map((cell) => captionText(cell).trim());
  const at = labels.findIndex((label) => label !== '');
  if (at === -1) return cells;
  const label = labels[at]!;
  const link: DocumentInlineContent = {
    object: 'inline',
    type: 'link',
    data: { ref },
    nodes: [textNode([leaf(label)])],
  };
  return cells.map((cell, index) => (index === at ? [link] : cell));
}

/** A file as a link to it; the block has no caption to label it with, so its URL does. */
function fileAsParagraph(file: DocumentBlockFile): DocumentBlockParagraph {
  const url = urlFromRef({ ...file.data.ref }) ?? '';
  return paragraph([{ object: 'inline', type: 'link', data: { ref: file.data.ref }, nodes: [textNode([leaf(url)])] }]);
}

/** Tabs as their content one after the other, each tab's under its title in bold. */
function unfoldTabs(tabs: DocumentBlockTabs): DocumentTabsItemChild[] {
  return tabs.nodes.flatMap((tab) => [
    ...(tab.data.title === '' ? [] : [paragraph([textNode([leaf(tab.data.title, marksOf(['bold']))])])]),
    ...tab.nodes,
  ]);
}

/** An expandable as its title's paragraph, when it has text, and its body. */
function unfoldExpandable(expandable: DocumentBlockExpandable): DocumentExpandableBodyChild[] {
  const [title, body] = expandable.fragments;
  return [...(isEmptyInlineContent(title.nodes[0].nodes) ? [] : title.nodes), ...body.nodes];
}

const labelled = (ref: ContentRef, label: string): DocumentBlockParagraph =>
  paragraph([{ object: 'inline', type: 'link', data: { ref }, nodes: [textNode([leaf(label)])] }]);
const plainParagraphs = (...texts: string[]): DocumentBlockParagraph[] =>
  texts.filter((text) => text !== '').map((text) => paragraph([textNode([leaf(text)])]));
const operation = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/**
 * What a block becomes where it may not go: simpler blocks holding its text
 * (a link for what points somewhere, the content of what holds blocks), or
 * nothing for a block that has none. Essentials, which go everywhere, stay.
 */
function fallback(block: DocumentTopLevelBlock): DocumentTopLevelBlock[] {
  switch (block.type) {
    case 'images':
      return [imagesAsParagraph(block)];
    case 'code':
      return codeAsParagraph(block);
    case 'table':
      return tableAsParagraphs(block);
    case 'hint':
    case 'blockquote':
    case 'if':
      return block.nodes;
    case 'file':
      return [fileAsParagraph(block)];
    case 'tabs':
      return unfoldTabs(block);
    case 'expandable':
      return unfoldExpandable(block);
    case 'math':
      return [paragraph([{ object: 'inline', type: 'inline-math', data: { ...block.data }, isVoid: true }])];
    case 'embed':
      return [labelled({ kind: 'url', url: block.data.url }, block.data.url)];
    case 'content-ref':
      return [labelled(block.data.ref, urlFromRef({ ...block.data.ref }) ?? '')];
    case 'stepper':
      return block.nodes.flatMap((step) => step.nodes);
    case 'columns':
      return block.nodes.flatMap((column) => column.nodes);
    case 'updates':
      // Each entry under its day in bold, as a changelog written by hand would be.
      return block.nodes.flatMap((update) => [
        paragraph([textNode([leaf(update.data.date.slice(0, 10), marksOf(['bold']))])]),
        ...update.nodes,
      ]);
    case 'prompt':
      return [...plainParagraphs(block.data.description), ...block.nodes];
    case 'swagger':
      return [labelled(block.data.ref, operation(block.data.method, block.data.path))];
    case 'openapi-operation':
      return plainParagraphs(operation(block.data.method, block.data.path));
    case 'openapi-schemas':
      return plainParagraphs(block.data.schemas.join(', '));
    case 'reusable-content':
      // Its content is another document's; with no place for the block there is nothing of it to keep.
      return [];
    default:
      return [block];
  }
}

const ESSENTIALS = [
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'divider',
];

/** What each container holds, from the specs' `DocumentBlock*` schemas. */
const HOLDS = {
  listItem: new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'table', 'math']),
  quote: new Set([...ESSENTIALS, 'blockquote']),
  hint: new Set(ESSENTIALS),
  /** Tabs and steps (0.143.2 has neither expandables nor prompts in them). */
  tab: new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'hint', 'blockquote', 'math']),
  expandableBody: new Set([...ESSENTIALS, 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content']),
  column: new Set([
    ...ESSENTIALS,
    ...['images', 'code', 'hint', 'prompt', 'content-ref', 'embed', 'file', 'math', 'blockquote', 'table'],
    ...['expandable', 'stepper'],
  ]),
  update: new Set([
    ...ESSENTIALS,
    ...['content-ref', 'code', 'embed', 'file', 'images', 'hint', 'prompt', 'blockquote', 'math', 'tabs', 'expandable'],
  ]),
} as const;

/** The empty paragraph a container holds when it has nothing: no content once the container is gone. */
const hasContent = (block: DocumentTopLevelBlock) => block.type !== 'paragraph' || !isEmptyInlineContent(block.nodes);

/** The blocks a container holds, each one it cannot hold replaced by its fallback, until all fit. */
function fitTo<T extends DocumentTopLevelBlock>(holds: ReadonlySet<string>, blocks: DocumentTopLevelBlock[]): T[] {
  return blocks.flatMap((block) =>
    holds.has(block.type) ? [block as T] : fitTo<T>(holds, fallback(block).filter(hasContent)),
  );
}

export function fitListItem(blocks: DocumentTopLevelBlock[]): DocumentListItemChild[] {
  return fitTo(HOLDS.listItem, blocks);
}

export function fitQuote(blocks: DocumentTopLevelBlock[]): DocumentQuoteChild[] {
  return fitTo(HOLDS.quote, blocks);
}

/** What a tab, or a step of a stepper, holds. */
export function fitTab(blocks: DocumentTopLevelBlock[]): DocumentTabsItemChild[] {
  return fitTo(HOLDS.tab, blocks);
}

export function fitExpandableBody(blocks: DocumentTopLevelBlock[]): DocumentExpandableBodyChild[] {
  return fitTo(HOLDS.expandableBody, blocks);
}

export function fitHint(blocks: DocumentTopLevelBlock[]): DocumentEssentialBlock[] {
  return fitTo(HOLDS.hint, blocks);
}

export function fitColumn(blocks: DocumentTopLevelBlock[]): DocumentColumnChild[] {
  return fitTo(HOLDS.column, blocks);
}

export function fitUpdate(blocks: DocumentTopLevelBlock[]): DocumentUpdateChild[] {
  return fitTo(HOLDS.update, blocks);
}

/** Slate keeps at least one block in every container; an empty one gets an empty paragraph. */
export function orEmptyParagraph<T>(blocks: T[]): Array<T | DocumentBlockParagraph> {
  return blocks.length > 0 ? blocks : [paragraph([])];
}
