import type { Definition, Image, Link, Nodes, Root } from 'mdast';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { fromMarkdown, type CompileContext, type Token } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';

/** The markdown dialect of pages: CommonMark, GitHub's extensions, and YAML frontmatter. */
export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, {
    extensions: [gfm(), frontmatter()],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown()],
  });
}

export type UrlNode = Link | Image | Definition;
/** Source offsets of a URL as written, `<…>` included. */
export interface SourceRange {
  start: number;
  end: number;
}

/**
 * Parses like `parseMarkdown` and records where each link, image and definition
 * wrote its destination. mdast keeps only the decoded URL; the parser's own
 * destination tokens are the one exact source of where it sits.
 */
export function parseMarkdownWithDestinations(markdown: string): { tree: Root; destinations: Map<UrlNode, SourceRange> } {
  const destinations = new Map<UrlNode, SourceRange>();
  function record(this: CompileContext, token: Token): undefined {
    const node = this.stack.at(-1);
    if (node?.type === 'link' || node?.type === 'image' || node?.type === 'definition') {
      destinations.set(node, { start: token.start.offset, end: token.end.offset });
    }
  }
  // These wrapper tokens have no handler of their own in mdast-util-from-markdown, so hooking them changes nothing else.
  const tree = fromMarkdown(markdown, {
    extensions: [gfm(), frontmatter()],
    mdastExtensions: [
      gfmFromMarkdown(),
      frontmatterFromMarkdown(),
      { exit: { resourceDestination: record, definitionDestination: record } },
    ],
  });
  return { tree, destinations };
}

/** Calls `visitor` on every node, parents before their children, in document order. */
export function visitTree(node: Nodes, visitor: (node: Nodes) => void): void {
  visitor(node);
  if ('children' in node) for (const child of node.children) visitTree(child, visitor);
}

/** The text a reader sees, for titles: images, HTML and footnote marks contribute nothing. */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'break':
      return ' ';
    default:
      return 'children' in node ? node.children.map(plainText).join('') : '';
  }
}
