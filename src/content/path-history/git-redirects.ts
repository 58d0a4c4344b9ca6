import type { Db } from '../../db/database.js';
import type { ContentTree, PageState } from '../tree.js';
import { pagesThatLeft, type SpacePlace } from './queries.js';

/**
 * The `redirects` of a space's `.gitbook.yaml`, as its Git Sync imports keep
 * them: a path of the space's published content, and the page file (from the
 * content root, `a/b.md` or `a/b/README.md`) it leads to.
 */
export interface GitRedirect {
  source: string;
  target: string;
}

/** Redirects a space keeps: far more than a real `.gitbook.yaml` holds (the file is read up to 64 KiB). */
export const MAX_GIT_REDIRECTS = 2000;
/** As the table's checks. */
export const MAX_GIT_REDIRECT_LENGTH = 1024;

/** A path as the reader matches it: its slugs joined by `/`, no leading `./` or `/`, no trailing `/`. */
export function redirectSource(path: string): string {
  return path
    .split('/')
    .filter((slug) => slug !== '' && slug !== '.')
    .join('/');
}

/**
 * The redirects a space keeps from what a repository says: sources read as
 * the reader matches them, the first of two that read alike, none empty or
 * over the bounds, at most MAX_GIT_REDIRECTS.
 */
export function keptGitRedirects(redirects: readonly { from: string; to: string }[]): GitRedirect[] {
  const kept = new Map<string, string>();
  for (const { from, to } of redirects) {
    const source = redirectSource(from);
    if (source === '' || source.length > MAX_GIT_REDIRECT_LENGTH || to === '' || to.length > MAX_GIT_REDIRECT_LENGTH)
      continue;
    if (!kept.has(source)) kept.set(source, to);
    if (kept.size === MAX_GIT_REDIRECTS) break;
  }
  return [...kept].map(([source, target]) => ({ source, target }));
}

/** Makes `redirects` the space's, in their order, in place of those it had. */
export async function replaceGitRedirects(db: Db, place: SpacePlace, redirects: readonly GitRedirect[]): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('space_git_redirects')
      .where('organization_id', '=', place.organizationId)
      .where('space_id', '=', place.spaceId)
      .execute();
    if (redirects.length === 0) return;
    await tx
      .insertInto('space_git_redirects')
      .values(
        redirects.map((redirect, position) => ({
          organization_id: place.organizationId,
          space_id: place.spaceId,
          source: redirect.source,
          target: redirect.target,
          position,
        })),
      )
      .execute();
  });
}

/** The space's redirects, in their order. */
export async function listGitRedirects(db: Db, place: SpacePlace): Promise<GitRedirect[]> {
  return db
    .selectFrom('space_git_redirects')
    .select(['source', 'target'])
    .where('organization_id', '=', place.organizationId)
    .where('space_id', '=', place.spaceId)
    .orderBy('position')
    .execute();
}

/** The first document of the tree, which Git Sync keeps as the root's README.md. */
function firstDocument(tree: ContentTree, parentId: string | null = null): PageState | undefined {
  for (const page of tree.childrenOf(parentId)) {
    if (page.type === 'document') return page;
    if (page.type === 'group') {
      const inside = firstDocument(tree, page.pageId);
      if (inside) return inside;
    }
  }
  return undefined;
}

/** The page path a page file names (`a/b/README.md` and `a/b.md`: `a/b`); '' for the root's README.md, the first page. */
export function pagePathOfFile(file: string): string | undefined {
  const path = redirectSource(file);
  if (!/\.md$/i.test(path)) return undefined;
  return path.replace(/(^|\/)readme\.md$/i, '').replace(/\.md$/i, '');
}

/**
 * The page each redirect's page file names in `tree`, by file: `README.md`
 * is the first page, `a/b/README.md` and `a/b.md` the page at `a/b`, or,
 * where a write since moved that page, the page that left that path. One
 * query, whatever their number.
 */
export async function pagesOfFiles(
  db: Db,
  place: SpacePlace,
  tree: ContentTree,
  files: readonly string[],
): Promise<Map<string, PageState>> {
  const found = new Map<string, PageState>();
  const unmatched = new Map<string, string>();
  for (const file of files) {
    const pagePath = pagePathOfFile(file);
    if (pagePath === undefined) continue;
    const page = pagePath === '' ? firstDocument(tree) : tree.pageAtPath(pagePath);
    if (page && page.type !== 'link') found.set(file, page);
    else if (!page && pagePath !== '') unmatched.set(file, pagePath);
  }
  const left = await pagesThatLeft(db, place, [...new Set(unmatched.values())]);
  for (const [file, pagePath] of unmatched) {
    const page = tree.pages.get(left.get(pagePath) ?? '');
    if (page && page.type !== 'link') found.set(file, page);
  }
  return found;
}

/**
 * Where a redirect of `.gitbook.yaml` sends a visitor of `path` in the space,
 * as its page now is; undefined where none answers `path`, or its page is gone.
 */
export async function gitRedirectPage(
  db: Db,
  place: SpacePlace,
  tree: ContentTree,
  path: string,
): Promise<PageState | undefined> {
  const source = redirectSource(path);
  if (source === '' || source.length > MAX_GIT_REDIRECT_LENGTH) return undefined;
  const row = await db
    .selectFrom('space_git_redirects')
    .select('target')
    .where('organization_id', '=', place.organizationId)
    .where('space_id', '=', place.spaceId)
    .where('source', '=', source)
    .executeTakeFirst();
  return row && (await pagesOfFiles(db, place, tree, [row.target])).get(row.target);
}
