import { isEmptyInlineContent, leaf, marksOf, paragraph, textNode } from './build.js';
import { urlFromRef } from './links.js';
import type {
  DocumentBlockCode,
  DocumentBlockExpandable,
  DocumentBlockFile,
  DocumentBlockImages,
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentBlockTabs,
  DocumentEssentialBlock,
  DocumentExpandableBodyChild,
  DocumentInlineContent,
  DocumentInlineImage,
  DocumentListItemChild,
  DocumentQuoteChild,
  DocumentTabsItemChild,
  DocumentTopLevelBlock,
} from './types.js';

/**
 * The spec limits what each container holds: a list item takes no image
 * block, a quote only essentials and quotes, a hint only essentials, a tab
 * no table, an expandable no file, and only the page itself holds tabs and
 * expandables. Markdown nests anything anywhere, so blocks a container
 * cannot take are turned into ones it can, keeping their text.
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

/** A table as one paragraph per row, header first, cells separated by ` | `. */
function tableAsParagraphs(table: DocumentBlockTable): DocumentBlockParagraph[] {
  const { view, definition, records } = table.data;
  // A cell names its fragment; cards' link and cover cells hold references, which have no text.
  const cellContent = (value: unknown) =>
    table.fragments.find((f) => f.fragment === value)?.nodes.flatMap(inlinesOfBlock) ?? [];
  const rows: DocumentInlineContent[][][] = [
    view.columns.map((column) => [textNode([leaf(definition[column]?.title ?? '')])]),
    ...Object.values(records)
      .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1))
      .map((record) => view.columns.map((column) => cellContent(record.values[column]))),
  ];
  return rows.map((cells) =>
    paragraph(cells.flatMap((cell, index) => (index === 0 ? cell : [textNode([leaf(' | ')]), ...cell]))),
  );
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

export function fitListItem(blocks: DocumentTopLevelBlock[]): DocumentListItemChild[] {
  return blocks.flatMap((block): DocumentListItemChild[] => {
    switch (block.type) {
      case 'images':
        return [imagesAsParagraph(block)];
      case 'file':
        return [fileAsParagraph(block)];
      case 'tabs':
        return fitListItem(unfoldTabs(block));
      case 'expandable':
        return fitListItem(unfoldExpandable(block));
      default:
        return [block];
    }
  });
}

export function fitQuote(blocks: DocumentTopLevelBlock[]): DocumentQuoteChild[] {
  return blocks.flatMap((block): DocumentQuoteChild[] => {
    switch (block.type) {
      case 'images':
        return [imagesAsParagraph(block)];
      case 'code':
        return codeAsParagraph(block);
      case 'table':
        return tableAsParagraphs(block);
      case 'hint':
        return block.nodes;
      case 'file':
        return [fileAsParagraph(block)];
      case 'tabs':
        return fitQuote(unfoldTabs(block));
      case 'expandable':
        return fitQuote(unfoldExpandable(block));
      default:
        return [block];
    }
  });
}

export function fitTab(blocks: DocumentTopLevelBlock[]): DocumentTabsItemChild[] {
  return blocks.flatMap((block): DocumentTabsItemChild[] => {
    switch (block.type) {
      case 'table':
        return tableAsParagraphs(block);
      case 'tabs':
        return unfoldTabs(block);
      case 'expandable':
        return fitTab(unfoldExpandable(block));
      default:
        return [block];
    }
  });
}

export function fitExpandableBody(blocks: DocumentTopLevelBlock[]): DocumentExpandableBodyChild[] {
  return blocks.flatMap((block): DocumentExpandableBodyChild[] => {
    switch (block.type) {
      case 'file':
        return [fileAsParagraph(block)];
      case 'tabs':
        return fitExpandableBody(unfoldTabs(block));
      case 'expandable':
        return unfoldExpandable(block);
      default:
        return [block];
    }
  });
}

export function fitHint(blocks: DocumentTopLevelBlock[]): DocumentEssentialBlock[] {
  // What a quote holds, with its quotes flattened too: a hint holds no quote.
  return fitQuote(blocks).flatMap((block) => (block.type === 'blockquote' ? fitHint(block.nodes) : [block]));
}

/** Slate keeps at least one block in every container; an empty one gets an empty paragraph. */
export function orEmptyParagraph<T>(blocks: T[]): Array<T | DocumentBlockParagraph> {
  return blocks.length > 0 ? blocks : [paragraph([])];
}
