import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import type { Html, PhrasingContent } from 'mdast';
import { inlinePhrasing, withoutTrailingBreaks } from './inline-to-markdown.js';
import { asObject, childObjects, field, nodeType, type At, type JsonObject } from './read-json.js';

/**
 * Writing GitBook's HTML blocks (figures, tables, aligned text, highlighted
 * code): a document's content as hast, serialized the way GitBook's own
 * export does (hast-util-to-html: `&#x26;` for `&`, bare boolean attributes).
 */

/** hast as HTML; raw nodes are inline HTML written by inline-html-write.ts (buttons, pictures), kept as they are. */
export function htmlOf(nodes: ElementContent | ElementContent[]): string {
  const children = Array.isArray(nodes) ? nodes : [nodes];
  return toHtml({ type: 'root', children }, { allowDangerousHtml: true });
}

/**
 * Markdown phrasing as hast. An HTML block ends at a blank line, so text
 * never carries one: line breaks are `<br>`, and other line endings spaces.
 */
export function phrasingHast(phrasing: PhrasingContent[]): ElementContent[] {
  return phrasing.flatMap((node): ElementContent[] => {
    switch (node.type) {
      case 'text':
        return [{ type: 'text', value: node.value.replace(/\r\n|\r|\n/g, ' ') }];
      case 'strong':
        return [h('strong', phrasingHast(node.children))];
      case 'emphasis':
        return [h('em', phrasingHast(node.children))];
      case 'delete':
        return [h('s', phrasingHast(node.children))];
      case 'inlineCode':
        return [h('code', node.value.replace(/\r\n|\r|\n/g, ' '))];
      case 'link':
        return [h('a', { href: node.url }, phrasingHast(node.children))];
      case 'image':
        return [h('img', { src: node.url, alt: node.alt ?? '' })];
      case 'break':
        return [h('br')];
      case 'html':
        // hast-util-to-html writes `raw` nodes as they are when allowed; hast's own types do not list them.
        return [{ type: 'raw', value: node.value } as unknown as ElementContent];
      default:
        return 'children' in node ? phrasingHast(node.children) : [];
    }
  });
}

/** The inline content of a paragraph, heading or caption as hast. */
export function inlineHast(node: JsonObject, at: At): ElementContent[] {
  return phrasingHast(withoutTrailingBreaks(inlinePhrasing(node, at, 'html')));
}

const LISTS: Readonly<Record<string, string>> = { 'list-unordered': 'ul', 'list-ordered': 'ol', 'list-tasks': 'ul' };

/**
 * Blocks of a table cell as hast: paragraphs, headings, lists and dividers;
 * a cell of one paragraph is its text alone, as GitBook writes it.
 */
export function cellHast(parent: JsonObject, at: At): ElementContent[] {
  const blocks = childObjects(parent, at, 'nodes');
  const [only] = blocks;
  if (blocks.length === 1 && only![0].type === 'paragraph') return inlineHast(...only!);
  return blocks.flatMap(([block, blockAt]): Element[] => {
    const type = nodeType(block, blockAt);
    if (type === 'paragraph') return [h('p', inlineHast(block, blockAt))];
    if (type.startsWith('heading-')) return [h(`h${type.slice(-1)}`, inlineHast(block, blockAt))];
    if (type === 'divider') return [h('hr')];
    const list = LISTS[type];
    if (!list) return [];
    const items = childObjects(block, blockAt, 'nodes').map(([item, itemAt]) => h('li', cellHast(item, itemAt)));
    return [h(list, items)];
  });
}

const ALIGN_ATTRIBUTES: Readonly<Record<string, string>> = { start: 'left', center: 'center', end: 'right' };

/**
 * A paragraph or heading with an alignment, which markdown cannot say, as
 * GitBook writes it: `<p align="center">…</p>`, `<h2 align="center">…</h2>`;
 * null when it has none.
 */
export function alignedHtml(node: JsonObject, at: At, tagName: string): Html | null {
  const data = node.data === undefined ? {} : asObject(node.data, field(at, 'data'));
  const align = typeof data.align === 'string' ? ALIGN_ATTRIBUTES[data.align] : undefined;
  return align ? { type: 'html', value: htmlOf(h(tagName, { align }, inlineHast(node, at))) } : null;
}
