import type { Heading, Root, RootContent } from 'mdast';
import { parseMarkdown, plainText } from './markdown-tree.js';

/**
 * GitBook's Git Sync writes a page as `# Title` followed by its content, so the
 * page title is the first block when that block is a level-1 heading.
 * Frontmatter before it does not count as a block.
 */
function leadingHeading(tree: Root): { heading: Heading; next: RootContent | undefined } | null {
  const blocks = tree.children.filter((node) => node.type !== 'yaml');
  const first = blocks[0];
  if (first?.type !== 'heading' || first.depth !== 1) return null;
  return { heading: first, next: blocks[1] };
}

/** The plain text of the leading `# Title`, or null when the markdown does not start with one. */
export function leadingHeadingTitle(markdown: string): string | null {
  const found = leadingHeading(parseMarkdown(markdown));
  // A setext heading may span lines; a title is one line.
  return found ? plainText(found.heading).replaceAll(/\s+/g, ' ').trim() : null;
}

/** The markdown without its leading `# Title` and the blank lines after it; anything else unchanged. */
export function withoutLeadingHeading(markdown: string): string {
  const found = leadingHeading(parseMarkdown(markdown));
  if (!found) return markdown;
  const next = found.next?.position?.start;
  // Cut whole lines: from the heading's line to the next block's line, whose indentation stays as written.
  const end = next ? lineStart(next) : markdown.length;
  return markdown.slice(0, lineStart(found.heading.position!.start)) + markdown.slice(end);
}

/** Top-level blocks sit in no container, so their line starts `column - 1` characters before them. */
function lineStart(point: NonNullable<Heading['position']>['start']): number {
  return point.offset! - (point.column - 1);
}
