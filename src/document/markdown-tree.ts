import type { Definition, Image, Link, Nodes, Root } from 'mdast';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { fromMarkdown, type CompileContext, type Token } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mathFromMarkdown } from 'mdast-util-math';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { math } from 'micromark-extension-math';
import { BadRequestError } from '../core/api-errors.js';

/**
 * Runs a parse, turning the stack overflow of markdown nested thousands of
 * levels deep (the parser's own tree walks recurse) into a 400, so such
 * markdown is refused when written rather than failing every later read.
 */
export function withinParserLimits<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof RangeError) throw new BadRequestError('markdown nests too deeply to be read');
    throw error;
  }
}

/**
 * GitBook's formulas: `$$…$$` in a line of text, and `$$` fences on lines of
 * their own around a block. A single `$` is text: pages write prices ($10).
 */
export const MATH_OPTIONS = { singleDollarTextMath: false } as const;

/** The markdown dialect of pages: CommonMark, GitHub's extensions, GitBook's math, and YAML frontmatter. */
export function parseMarkdown(markdown: string): Root {
  return withinParserLimits(() =>
    fromMarkdown(markdown, {
      extensions: [gfm(), math(MATH_OPTIONS), frontmatter()],
      mdastExtensions: [gfmFromMarkdown(), mathFromMarkdown(), frontmatterFromMarkdown()],
    }),
  );
}

/**
 * Markdown found inside an HTML block (see details.ts), which is part of a
 * page and not a page: a `---` opening it is a rule, not frontmatter.
 */
export function parseMarkdownFragment(markdown: string): Root {
  return withinParserLimits(() => fromMarkdown(markdown, FRAGMENT_OPTIONS));
}

/** Made once: a page can hold thousands of fragments, and building GitHub's extensions costs more than a short parse. */
const FRAGMENT_OPTIONS = {
  extensions: [gfm(), math(MATH_OPTIONS)],
  mdastExtensions: [gfmFromMarkdown(), mathFromMarkdown()],
};

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
export function parseMarkdownWithDestinations(markdown: string): {
  tree: Root;
  destinations: Map<UrlNode, SourceRange>;
} {
  const destinations = new Map<UrlNode, SourceRange>();
  function record(this: CompileContext, token: Token): undefined {
    const node = this.stack.at(-1);
    if (node?.type === 'link' || node?.type === 'image' || node?.type === 'definition') {
      destinations.set(node, { start: token.start.offset, end: token.end.offset });
    }
  }
  // These wrapper tokens have no handler of their own in mdast-util-from-markdown, so hooking them changes nothing else.
  const tree = withinParserLimits(() =>
    fromMarkdown(markdown, {
      extensions: [gfm(), math(MATH_OPTIONS), frontmatter()],
      mdastExtensions: [
        gfmFromMarkdown(),
        mathFromMarkdown(),
        frontmatterFromMarkdown(),
        { exit: { resourceDestination: record, definitionDestination: record } },
      ],
    }),
  );
  return { tree, destinations };
}

/**
 * Calls `visitor` on every node, parents before their children, in document
 * order; a node's children are skipped when it returns false. A loop, not
 * recursion: markdown can nest thousands of quotes deep.
 */
export function visitTree(tree: Nodes, visitor: (node: Nodes) => boolean | undefined | void): void {
  const pending: Nodes[] = [tree];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (visitor(node) === false) continue;
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i -= 1) pending.push(node.children[i]!);
  }
}

/** How many containers (quotes, lists, hints) deep a document keeps its nesting; deeper ones are flattened. */
export const MAX_NESTING = 16;

/** The text a reader sees, for titles: images, HTML and footnote marks contribute nothing. */
export function plainText(node: Nodes): string {
  let text = '';
  visitTree(node, (child) => {
    if (child.type === 'text' || child.type === 'inlineCode') text += child.value;
    else if (child.type === 'break') text += ' ';
  });
  return text;
}
