import type { Db } from '../../db/database.js';
import type { ContentTree, PageState } from '../tree.js';
import { pageThatLeft, type SpacePlace } from './queries.js';

/**
 * The page of `tree` that was at `path` before a write moved it, where no
 * page of the tree is at `path` now: an old address never shadows a page.
 * Undefined where none was, or where that page is gone or has no address.
 */
export async function pageMovedFrom(
  db: Db,
  place: SpacePlace,
  tree: ContentTree,
  path: string,
): Promise<PageState | undefined> {
  const normalized = path
    .split('/')
    .filter((slug) => slug !== '')
    .join('/');
  if (normalized === '' || tree.pageAtPath(normalized)) return undefined;
  const pageId = await pageThatLeft(db, place, normalized);
  const page = pageId === undefined ? undefined : tree.pages.get(pageId);
  return page && page.type !== 'link' && tree.pathOf(page.pageId) !== normalized ? page : undefined;
}
