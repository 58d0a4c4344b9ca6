import { gitSyncLayout } from '../../content/page-layout.js';
import type { ContentTree, PageState } from '../../content/tree.js';
import { ASSETS_FOLDER } from './model.js';
import { folderOf, relativePath } from './paths.js';
import { dumpYaml, type YamlMapping } from './yaml-dump.js';

/**
 * A page's frontmatter as GitBook's Git Sync writes it: every field of the
 * page it has (a page whose only field is its description gets a frontmatter
 * too), in GitBook's order and YAML style, so that a file read into a space
 * and written back is the same file.
 *
 * The API's markdown read (content/page-frontmatter.ts) writes frontmatter
 * only for pages with a layout or a cover, and in the `yaml` package's style:
 * its answer stays as it is; this is Git Sync's own, from the same layout.
 */

/** The cover's image as Git Sync names it: a space file by its path from the page's file, or its URL. */
function coverImage(tree: ContentTree, page: PageState, path: string): string | undefined {
  const ref = page.cover?.ref as { kind?: string; file?: string; url?: string } | undefined;
  if (ref?.kind === 'url' && typeof ref.url === 'string') return ref.url;
  if (ref?.kind !== 'file' || typeof ref.file !== 'string') return undefined;
  const file = tree.files.get(ref.file);
  return file ? relativePath(folderOf(path), `${ASSETS_FOLDER}${file.name}`) : undefined;
}

/** The frontmatter block and the blank line after it, or '' for a page with none of these fields; `path` is the page's file. */
export function gitSyncPageFrontmatter(tree: ContentTree, page: PageState, path: string): string {
  const data: YamlMapping = {};
  if (page.description) data.description = page.description;
  if (page.icon) data.icon = page.icon;
  if (page.emoji) data.emoji = page.emoji;
  const image = coverImage(tree, page, path);
  if (image !== undefined) {
    const { yPos, height } = page.cover ?? {};
    data.cover = image;
    data.coverY = typeof yPos === 'number' ? yPos : 0;
    if (typeof height === 'number') data.coverHeight = height;
  }
  // Options, sizes and masks: strings, flags and `{ visible }` mappings of them.
  if (page.layout !== null || page.cover !== null)
    data.layout = gitSyncLayout(page.layout, image !== undefined) as YamlMapping;
  if (page.hidden) data.hidden = true;
  if (page.noIndex) data.noIndex = true;
  if (page.noRobotsIndex) data.noRobotsIndex = true;
  if (Object.keys(page.variables).length > 0) data.vars = page.variables;
  return Object.keys(data).length === 0 ? '' : `---\n${dumpYaml(data)}---\n\n`;
}
