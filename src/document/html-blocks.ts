import type { Element, RootContent as HastContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { isEmptyInlineContent, paragraph } from './build.js';
import { fitHint, orEmptyParagraph } from './fit.js';
import { hintStyleOf } from './hints.js';
import { codeFromPre } from './html-code.js';
import { attribute, inlinesOf, isBlankText, isElement, type HtmlContext } from './html-content.js';
import { imagesBlock, imagesInContainer, isImageElement } from './html-images.js';
import { tableFromHtml } from './html-table.js';
import type { DocumentBlockHeading, DocumentBlockHint, DocumentTopLevelBlock, TextAlignment } from './types.js';

/**
 * GitBook writes several of its blocks as HTML in a page's markdown: images
 * (html-images.ts), cards and tables markdown cannot say (html-table.ts),
 * code with highlighted lines (html-code.ts), aligned paragraphs and
 * headings, and a hint where markdown cannot hold its tag (in a list item:
 * `<div data-gb-custom-block data-tag="hint" data-style="…">`). An HTML block made only of those is read into them; any other
 * (or one only partly understood) is left for the caller to show as source,
 * so no text is lost.
 */

/**
 * HTML blocks parsed per page, at most. Each parse costs a fixed setup
 * besides its text; real pages have a few dozen, and past this many the
 * blocks are shown as their source.
 */
export const MAX_HTML_BLOCKS = 1_000;

export interface HtmlBlocksContext extends HtmlContext {
  /** Shared by the whole page: how many more HTML blocks may be parsed. */
  budget: { blocks: number };
}

/** What an HTML block must open with to be one of GitBook's. */
const GITBOOK_BLOCK = /^\s*<(?:figure|img|picture|div|p|h[1-6]|pre|table)[\s>/]/i;

const ALIGN: Readonly<Record<string, TextAlignment>> = { left: 'start', center: 'center', right: 'end' };

function alignOf(element: Element): { align?: TextAlignment } {
  const align = ALIGN[attribute(element, 'align')?.toLowerCase() ?? ''];
  return align ? { align } : {};
}

const HEADING_TYPES = ['heading-1', 'heading-2', 'heading-3'] as const;

/** `<h1>`–`<h3>` as the headings markdown's `#`–`###` are; `<h4>`–`<h6>` as the deepest GitBook has. */
function heading(element: Element, context: HtmlContext): DocumentBlockHeading | null {
  const depth = Number(element.tagName.slice(1));
  const type = HEADING_TYPES[Math.min(depth, 3) - 1]!;
  const nodes = inlinesOf(element, context);
  return nodes && { object: 'block', type, data: alignOf(element), nodes };
}

/** GitBook's custom block of a hint, its content read as the blocks of an HTML block are; null for any other. */
function customHint(element: Element, context: HtmlContext): DocumentBlockHint | null {
  if (attribute(element, 'dataGbCustomBlock') === undefined || attribute(element, 'dataTag') !== 'hint') return null;
  const style = hintStyleOf(attribute(element, 'dataStyle') ?? 'info');
  const nodes = style && blocksOf(element.children, context);
  return nodes && { object: 'block', type: 'hint', data: { style }, nodes: orEmptyParagraph(fitHint(nodes)) };
}

/** The blocks of one top-level element, or null when it is none GitBook writes. */
function elementBlocks(element: Element, context: HtmlContext): DocumentTopLevelBlock[] | null {
  switch (element.tagName) {
    case 'div': {
      const hint = customHint(element, context);
      if (hint) return [hint];
      const images = imagesInContainer(element, context);
      return images ? [images] : null;
    }
    case 'p': {
      const images = attribute(element, 'align') === undefined ? null : imagesInContainer(element, context);
      if (images) return [images];
      const nodes = inlinesOf(element, context);
      if (!nodes) return null;
      return isEmptyInlineContent(nodes) ? [] : [{ ...paragraph(nodes), data: alignOf(element) }];
    }
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const block = heading(element, context);
      return block ? [block] : null;
    }
    case 'pre': {
      const code = codeFromPre(element);
      return code ? [code] : null;
    }
    case 'table': {
      const table = tableFromHtml(element, context);
      return table ? [table] : null;
    }
    default:
      return null;
  }
}

/** The document blocks of the block's top-level nodes; images side by side are one image block. */
function blocksOf(nodes: HastContent[], context: HtmlContext): DocumentTopLevelBlock[] | null {
  const blocks: DocumentTopLevelBlock[] = [];
  let images: Element[] = [];
  const flushImages = () => {
    const block = images.length > 0 ? imagesBlock(images, null, context) : null;
    images = [];
    if (block) blocks.push(block);
    return block !== null;
  };
  for (const node of nodes) {
    if (node.type === 'doctype' || isBlankText(node)) continue;
    if (!isElement(node)) return null;
    if (isImageElement(node)) {
      images.push(node);
      continue;
    }
    if (images.length > 0 && !flushImages()) return null;
    const read = elementBlocks(node, context);
    if (!read) return null;
    blocks.push(...read);
  }
  if (images.length > 0 && !flushImages()) return null;
  return blocks;
}

/**
 * The document blocks an HTML block of the page's markdown stands for, or
 * null when it is not one GitBook writes, or the page has parsed its share of
 * HTML blocks already. Parsing is linear in the block's text, which the
 * markdown bounds already limit.
 */
export function htmlBlocks(html: string, context: HtmlBlocksContext): DocumentTopLevelBlock[] | null {
  if (context.budget.blocks <= 0 || !GITBOOK_BLOCK.test(html)) return null;
  context.budget.blocks -= 1;
  try {
    return blocksOf(fromHtml(html, { fragment: true }).children, context);
  } catch (error) {
    // HTML nested thousands deep overflows the tree walks; it is shown as its source instead.
    if (error instanceof RangeError) return null;
    throw error;
  }
}
