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

/**
 * Whether the markdown could start with a level-1 heading, read without
 * parsing: a `#` line or a `=` underline in its first block, or frontmatter
 * before it. Every markdown that does passes; most that don't are answered
 * here, sparing a parse of the whole page.
 */
function mayStartWithHeading(markdown: string): boolean {
  const text = markdown.replace(/^(?:[ \t]*\r?\n)+/, '');
  if (text.startsWith('---')) return true;
  const firstBlock = text.split(/\r?\n[ \t]*(?:\r?\n|$)/, 1)[0]!;
  return /^ {0,3}#/.test(firstBlock) || /\n {0,3}=+[ \t]*(?:\r?\n|$)/.test(firstBlock);
}

/**
 * The plain text of the leading `# Title` and the markdown without it (and
 * the blank lines after it; anything else unchanged), or null when the
 * markdown does not start with one.
 */
export function splitLeadingHeading(markdown: string): { title: string; body: string } | null {
  if (!mayStartWithHeading(markdown)) return null;
  const found = leadingHeading(parseMarkdown(markdown));
  if (!found) return null;
  const next = found.next?.position?.start;
  // Cut whole lines: from the heading's line to the next block's line, whose indentation stays as written.
  const end = next ? lineStart(next) : markdown.length;
  return {
    // A setext heading may span lines; a title is one line.
    title: plainText(found.heading).replaceAll(/\s+/g, ' ').trim(),
    body: markdown.slice(0, lineStart(found.heading.position!.start)) + markdown.slice(end),
  };
}

/** Top-level blocks sit in no container, so their line starts `column - 1` characters before them. */
function lineStart(point: NonNullable<Heading['position']>['start']): number {
  return point.offset! - (point.column - 1);
}
