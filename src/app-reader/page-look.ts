import { DEFAULT_LAYOUT } from '../content/page-layout.js';

/** The parts of a page's layout its editor sets: the width, and which of the page's parts show. */
export const SHOWN_PARTS = ['title', 'description', 'tableOfContents', 'outline', 'pagination'] as const;
export type ShownPart = (typeof SHOWN_PARTS)[number];

/** What the editor's page settings say of how a page looks: its emoji or icon, and its layout's options. */
export interface PageLook {
  emoji: string;
  icon: string;
  width: 'default' | 'wide';
  shown: Record<ShownPart, boolean>;
}

/** A page's look as stored (GitBook's defaults where its layout sets nothing), for the editor's settings. */
export function lookOf(page: {
  emoji: string | null;
  icon: string | null;
  layout: Record<string, unknown> | null;
}): PageLook {
  const layout: Record<string, unknown> = { ...DEFAULT_LAYOUT, ...(page.layout ?? {}) };
  return {
    emoji: page.emoji ?? '',
    icon: page.icon ?? '',
    width: layout.width === 'wide' ? 'wide' : 'default',
    shown: Object.fromEntries(SHOWN_PARTS.map((part) => [part, layout[part] !== false])) as PageLook['shown'],
  };
}

/**
 * The frontmatter that sets the look's layout options in a page's markdown,
 * as Git Sync writes them: a content write reads it into the page's layout,
 * over the options the page has (its cover's, for one, stay as they are).
 */
export function layoutFrontmatter(look: PageLook): string {
  const lines = ['---', 'layout:', `  width: ${look.width}`];
  for (const part of SHOWN_PARTS) lines.push(`  ${part}:`, `    visible: ${look.shown[part]}`);
  lines.push('---', '');
  return lines.join('\n');
}

/** The form field of a part's checkbox. */
export const shownField = (part: ShownPart) => `show-${part}`;

/** The part's name in the editor's settings. */
export const SHOWN_PART_LABELS: Record<ShownPart, string> = {
  title: 'Title',
  description: 'Description',
  tableOfContents: 'Table of contents',
  outline: 'Outline (“On this page”)',
  pagination: 'Previous and next links',
};
