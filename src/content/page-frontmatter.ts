import { stringify } from 'yaml';
import { gitSyncLayout } from './page-layout.js';
import type { ContentTree, PageState } from './tree.js';

/** Where Git Sync keeps a space's files, from the repository's root. */
const ASSETS_FOLDER = '.gitbook/assets/';

/** The folder of a page's markdown file in Git Sync's layout: its own for a page with subpages (`a/README.md`). */
function gitFolderOf(tree: ContentTree, page: PageState): string {
  const path = tree.pathOf(page.pageId);
  const hasSubpages = tree.childrenOf(page.pageId).length > 0;
  if (hasSubpages) return path;
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The cover's image as Git Sync names it: a space file by its path from the page's folder, or its URL. */
function coverImage(tree: ContentTree, page: PageState): string | undefined {
  const ref = page.cover?.ref as { kind?: string; file?: string; url?: string } | undefined;
  if (ref?.kind === 'url' && typeof ref.url === 'string') return ref.url;
  if (ref?.kind !== 'file' || typeof ref.file !== 'string') return undefined;
  const file = tree.files.get(ref.file);
  if (!file) return undefined;
  const folder = gitFolderOf(tree, page);
  const up = folder === '' ? '' : '../'.repeat(folder.split('/').length);
  return `${up}${ASSETS_FOLDER}${file.name}`;
}

/**
 * The page's frontmatter as Git Sync writes it, for a page that has a layout
 * or a cover (one written from Git Sync's markdown, whose frontmatter said
 * more than the page's other fields): written back, the markdown makes the
 * same page. Other pages' markdown is their content alone, as it always was.
 */
export function gitSyncFrontmatter(tree: ContentTree, page: PageState): string {
  if (page.layout === null && page.cover === null) return '';
  const data: Record<string, unknown> = {};
  if (page.description) data.description = page.description;
  if (page.icon) data.icon = page.icon;
  if (page.emoji) data.emoji = page.emoji;
  const image = coverImage(tree, page);
  if (image !== undefined) {
    const { yPos, height } = page.cover ?? {};
    data.cover = image;
    data.coverY = typeof yPos === 'number' ? yPos : 0;
    if (typeof height === 'number') data.coverHeight = height;
  }
  data.layout = gitSyncLayout(page.layout, image !== undefined);
  if (page.hidden) data.hidden = true;
  if (page.noIndex) data.noIndex = true;
  if (page.noRobotsIndex) data.noRobotsIndex = true;
  if (Object.keys(page.variables).length > 0) data.vars = page.variables;
  return `---\n${stringify(data)}---\n\n`;
}
