import type { Element, ElementContent, Nodes as HastNodes } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { defaultHandlers, toMdast, type Handle } from 'hast-util-to-mdast';
import type { PhrasingContent, RootContent } from 'mdast';
import { paragraph } from './build.js';
import { fitHint } from './fit.js';
import { CLOSE_MARK_TAG } from './color-marks.js';
import { readHtmlTag, type HtmlTag } from './html-tag.js';
import { inlineContent, type Definitions } from './inline-from-markdown.js';
import { buttonData, carrying, carryingTag, darkSource, iconName, inlineImageOfTag } from './inline-html.js';
import { plainText } from './markdown-tree.js';
import type {
  DocumentBlockParagraph,
  DocumentEssentialBlock,
  DocumentInlineContent,
  DocumentTopLevelBlock,
} from './types.js';

/** What reading the content of an HTML block needs from the page around it. */
export interface HtmlContext {
  definitions: Definitions;
  /** Markdown blocks as document blocks, read as the page's own are. */
  flow: (children: RootContent[]) => DocumentTopLevelBlock[];
}

/** An attribute's value as written (`''` for a bare one), or undefined; `name` is hast's property name. */
export function attribute(element: Element, name: string): string | undefined {
  const value = element.properties[name];
  if (value === undefined || value === null || value === false) return undefined;
  if (value === true) return '';
  return Array.isArray(value) ? value.join(' ') : String(value);
}

export function isElement(node: HastNodes | undefined, ...names: string[]): node is Element {
  return node?.type === 'element' && (names.length === 0 || names.includes(node.tagName));
}

/** Text that shows nothing: the spaces and line breaks between tags. */
export function isBlankText(node: HastNodes): boolean {
  return (node.type === 'text' && node.value.trim() === '') || node.type === 'comment';
}

/** The element children of a node, or null when it also holds text or anything else. */
export function elementsOnly(children: ElementContent[]): Element[] | null {
  const elements: Element[] = [];
  for (const child of children) {
    if (child.type === 'element') elements.push(child);
    else if (!isBlankText(child)) return null;
  }
  return elements;
}

/** An element's opening tag as HTML. */
function openingTag(element: Element): string {
  const html = toHtml({ ...element, children: [] });
  const end = html.lastIndexOf('</');
  return end === -1 ? html : html.slice(0, end);
}

/** An element's opening tag as inline-html.ts reads tags, so both read GitBook's attributes one way. */
function tagOf(element: Element): HtmlTag | null {
  return readHtmlTag(openingTag(element));
}

const textOf = (nodes: RootContent[]) => plainText({ type: 'root', children: nodes }).trim();

/**
 * Buttons, icons, pictures and line-sized images read as the inlines they
 * are (with inline-html.ts's readers, as in a paragraph's markdown), rather
 * than as hast-util-to-mdast's link, emphasis and image, which would lose them.
 */
const asInline: Handle = (state, element) => {
  const tag = tagOf(element);
  const icon = tag && element.tagName === 'i' ? iconName(tag) : null;
  if (icon) return carrying({ object: 'inline', type: 'icon', data: { icon }, isVoid: true });
  const data = tag && element.tagName !== 'i' ? buttonData(tag, textOf(state.all(element))) : null;
  if (data) return carrying({ object: 'inline', type: 'button', data, isVoid: true });
  if (element.tagName === 'button') return state.all(element);
  return element.tagName === 'a' ? defaultHandlers.a(state, element) : defaultHandlers.i(state, element);
};

const picture: Handle = (state, element) => {
  const tags = element.children.flatMap((child) => (child.type === 'element' ? (tagOf(child) ?? []) : []));
  const img = tags.find((tag) => tag.name === 'img');
  const dark = tags.flatMap((tag) => (tag.name === 'source' ? (darkSource(tag) ?? []) : []))[0] ?? null;
  const image = img ? inlineImageOfTag(img, dark) : null;
  return image ? carrying(image) : state.all(element);
};

const img: Handle = (state, element) => {
  const tag = attribute(element, 'dataSize') === undefined ? null : tagOf(element);
  const image = tag ? inlineImageOfTag(tag, null) : null;
  return image ? carrying(image) : defaultHandlers.img(state, element);
};

/**
 * Coloured text as its tags around its content, as a paragraph's markdown
 * hands them over, so that one reader (color-marks.ts) takes its colour.
 */
const mark: Handle = (state, element) => [
  carryingTag(openingTag(element)),
  ...state.all(element),
  carryingTag(CLOSE_MARK_TAG),
];

const HANDLERS = { a: asInline, button: asInline, i: asInline, picture, img, mark };

const FLOW_TYPES = new Set(['paragraph', 'heading', 'list', 'blockquote', 'code', 'table', 'thematicBreak']);

/** HTML content as markdown blocks; bare phrasing (a cell's `<strong>Title</strong>`) as one paragraph. */
export function markdownOfHtml(children: ElementContent[]): RootContent[] {
  const tree = toMdast({ type: 'root', children }, { handlers: HANDLERS });
  const nodes = tree.type === 'root' ? tree.children : [tree];
  if (nodes.length === 0 || nodes.some((node) => FLOW_TYPES.has(node.type))) return nodes;
  return [{ type: 'paragraph', children: nodes as PhrasingContent[] }];
}

/** HTML content as the blocks a table cell holds: text, headings, lists. */
export function cellBlocks(children: ElementContent[], context: HtmlContext): DocumentEssentialBlock[] {
  return fitHint(context.flow(markdownOfHtml(children)));
}

/** HTML content as paragraphs (a caption): headings become paragraphs, lists their items' text. */
export function paragraphsOf(children: ElementContent[], context: HtmlContext): DocumentBlockParagraph[] {
  return markdownOfHtml(children).flatMap((node): DocumentBlockParagraph[] => {
    if (node.type === 'paragraph' || node.type === 'heading')
      return [paragraph(inlineContent(node.children, context.definitions))];
    return [];
  });
}

/** An element's content as one run of inline content (a paragraph's, a heading's); null when it holds other blocks. */
export function inlinesOf(element: Element, context: HtmlContext): DocumentInlineContent[] | null {
  const phrasing: PhrasingContent[] = [];
  for (const node of markdownOfHtml(element.children)) {
    if (node.type !== 'paragraph' && node.type !== 'heading') return null;
    phrasing.push(...node.children);
  }
  return inlineContent(phrasing, context.definitions);
}
