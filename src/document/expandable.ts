import type { PhrasingContent } from 'mdast';
import { append, paragraph } from './build.js';
import { fitExpandableBody, orEmptyParagraph } from './fit.js';
import type { DetailsGroup, FlowNode } from './group-tags.js';
import { inlineContent, type Definitions } from './inline-from-markdown.js';
import { parseMarkdownFragment } from './markdown-tree.js';
import type { DocumentBlockExpandable, DocumentTopLevelBlock } from './types.js';

/** Letters, digits, spaces and punctuation that no markdown construct starts with, a letter or digit first. */
const PLAIN_WORDS = /^[\p{L}\p{N}][\p{L}\p{N} ,;?'"/]*$/u;

/**
 * A summary's markdown as one line of inline content: its paragraphs and
 * headings joined by spaces, and the text of any HTML in it (`<b>…</b>`,
 * `<h3>…</h3>`), since a title is one paragraph.
 */
export function summaryPhrasing(markdown: string): PhrasingContent[] {
  const text = markdown.trim();
  // Most titles are words, which read as themselves: no parse for them (a page may hold thousands).
  if (PLAIN_WORDS.test(text)) return [{ type: 'text', value: text }];
  const phrasing: PhrasingContent[] = [];
  for (const block of parseMarkdownFragment(text).children) {
    const children: PhrasingContent[] =
      block.type === 'paragraph' || block.type === 'heading'
        ? block.children
        : block.type === 'html'
          ? [{ type: 'text', value: block.value.replace(/<[^<>]*>/g, '').trim() }]
          : [];
    if (children.length === 0) continue;
    if (phrasing.length > 0) phrasing.push({ type: 'text', value: ' ' });
    append(phrasing, children);
  }
  return phrasing;
}

/** The expandable block of a `<details>` group; `content` turns its body's markdown into blocks, one level deeper. */
export function expandableBlock(
  group: DetailsGroup,
  definitions: Definitions,
  content: (children: FlowNode[]) => DocumentTopLevelBlock[],
): DocumentBlockExpandable {
  const title = group.summary === null ? [] : inlineContent(summaryPhrasing(group.summary), definitions);
  return {
    object: 'block',
    type: 'expandable',
    data: {},
    fragments: [
      { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(title)] },
      {
        object: 'fragment',
        fragment: 'expandable-body',
        type: 'expandable-body',
        nodes: orEmptyParagraph(fitExpandableBody(content(group.children))),
      },
    ],
    isVoid: true,
  };
}
