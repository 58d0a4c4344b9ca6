import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../core/errors.js';
import type { Conversions } from '../../conversions/pool.js';
import type { UrlDestination, UrlKind } from '../../document/index.js';
import { rewriteFileTagSources } from './file-tag-sources.js';
import { ASSETS_FOLDER } from './model.js';
import { folderOf, isReadme, relativePath } from './paths.js';
import { formatLinkDestination } from './link-syntax.js';

/**
 * A page's file as Git Sync writes it, from what the service stores: the
 * frontmatter, `# Title`, then the content with its links to pages and
 * files (stored as `/pages/<id>` and `/files/<id>`) written as paths from
 * the page's folder, `setup.md#options`, `install/` or
 * `../.gitbook/assets/map.png`, as GitBook writes and reads them.
 */

/** The Git Sync paths of a revision's pages (from the root) and its files' names, by id. */
export interface GitTargets {
  pages: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, string>;
}

const CANONICAL = /^\/(pages|files)\/([^/?#]+)(#.*)?$/;

/**
 * A page's file as a link from `folder` names it. A page with subpages is
 * named by its folder, as GitBook writes it: `setup/`, `../`, and `./` for
 * the folder the link is in (`./#options` to one of its headings).
 */
function pageLink(folder: string, path: string): string {
  const relative = relativePath(folder, path);
  if (!isReadme(path)) return relative;
  const inFolder = relative.slice(0, relative.lastIndexOf('/') + 1);
  return inFolder || './';
}

/** A canonical link as a path from `folder`, or undefined for any other URL (left as written). */
export function gitUrlOf(url: string, folder: string, targets: GitTargets): string | undefined {
  const match = CANONICAL.exec(url);
  if (!match) return undefined;
  const [, kind, id, hash = ''] = match;
  if (kind === 'pages') {
    const path = targets.pages.get(id!);
    return path === undefined ? undefined : pageLink(folder, path) + hash;
  }
  const name = targets.files.get(id!);
  return name === undefined ? undefined : relativePath(folder, `${ASSETS_FOLDER}${name}`) + hash;
}

/** The markdown with the given destinations replaced where `rewrite` answers, each in the form its place takes. */
function splice(
  markdown: string,
  destinations: readonly UrlDestination[],
  rewrite: (url: string, kind: UrlKind) => string | undefined,
): string {
  let out = '';
  let copied = 0;
  for (const destination of [...destinations].sort((a, b) => a.start - b.start)) {
    const url = rewrite(destination.url, destination.kind);
    // An attribute holds its value between double quotes, on one line.
    if (url === undefined || (destination.kind === 'attribute' && /["\n]/.test(url))) continue;
    out +=
      markdown.slice(copied, destination.start) + (destination.kind === 'attribute' ? url : formatLinkDestination(url));
    copied = destination.end;
  }
  return out + markdown.slice(copied);
}

/** A page's content as the conversion pool reads it: where its links are. */
type ReadContent = { markdown: string; destinations: UrlDestination[] };

/**
 * Reads of pages' files by their text's hash: a read depends on the text
 * alone, and an export writes every page of the space again, most of them
 * as they were. Bounded by the characters kept.
 */
const reads = new LRUCache<string, ReadContent>({
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (read) => read.markdown.length + 64 * read.destinations.length + 1,
});

async function readContent(conversions: Conversions, text: string, path: string): Promise<ReadContent> {
  const key = createHash('sha256').update(text).digest('base64url');
  const known = reads.get(key);
  if (known) return known;
  const read = await conversions.readPage(text, `pages/${path}`);
  const kept = { markdown: read.markdown, destinations: read.destinations };
  reads.set(key, kept);
  return kept;
}

/**
 * The page's file. Its content is read as the service reads a written page
 * (on the conversion pool), which finds where its links are; a page that
 * names no page or file by id needs no read, a page read before no second.
 */
export async function gitSyncPageFile(
  conversions: Conversions,
  page: { path: string; frontmatter: string; title: string; markdown: string },
  targets: GitTargets,
): Promise<string> {
  const head = `${page.frontmatter}# ${page.title}\n`;
  // An empty page too has the blank line after its title: GitBook writes `# Title\n\n`.
  const file = (content: string) => `${head}\n${content}`;
  if (!page.markdown.includes('/pages/') && !page.markdown.includes('/files/')) return file(page.markdown);
  let read;
  try {
    read = await readContent(conversions, file(page.markdown), page.path);
  } catch (error) {
    // A page at the markdown limits, which the title line takes over them: its links stay as stored.
    if (error instanceof ApiError) return file(page.markdown);
    throw error;
  }
  const rewrite = (url: string) => gitUrlOf(url, folderOf(page.path), targets);
  return file(rewriteFileTagSources(splice(read.markdown, read.destinations, rewrite), rewrite));
}
