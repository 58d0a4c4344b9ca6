import { NotFoundError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { targetOf, type ContentLocator } from '../actions.js';
import type { ContentTree, PageState } from '../tree.js';

/** The spec's RevisionPageMetaLinkTarget, as this service makes it: a page by id in a space. */
interface PageRef {
  kind: 'page';
  page: string;
  space: string;
}

export interface RevisionPageMetaLinks {
  canonical: PageRef;
  alternates: PageRef[];
  previous?: PageRef;
  next?: PageRef;
  parent?: PageRef;
}

/** A page a reader reads in order: a document page, not hidden (groups and links are not pages to read). */
const isRead = (page: PageState) => page.type === 'document' && !page.hidden;

/** The pages a reader reads, in reading order: depth first, siblings in their order. */
function readingOrder(tree: ContentTree): PageState[] {
  const order: PageState[] = [];
  const pending = [...tree.childrenOf(null)].reverse();
  while (pending.length > 0) {
    const page = pending.pop()!;
    if (isRead(page)) order.push(page);
    pending.push(...[...tree.childrenOf(page.pageId)].reverse());
  }
  return order;
}

/**
 * A page's meta links (what a reader puts in `<link rel="canonical">` and
 * `rel="alternate"`). GitBook fills them for pages its translations and
 * variants copy from another space. Nothing copies a page between spaces
 * here, so each page is its own canonical, in the space it belongs to (the
 * published page, for a page read in a change request or an older
 * revision), and has no alternates. Beside them, what the spec's description
 * of these operations names: the previous and next pages in reading order
 * and the parent page, where there is one.
 */
export async function readPageMetaLinks(
  context: Context,
  userId: string,
  locator: ContentLocator,
  pageId: string,
): Promise<RevisionPageMetaLinks> {
  const target = await targetOf(context, userId, locator);
  const tree = await context.content.tree(target.point);
  const page = tree.pages.get(pageId);
  if (!page) throw new NotFoundError('No page with this id in this revision');
  const refTo = (of: PageState): PageRef => ({ kind: 'page', page: of.pageId, space: target.space.id });
  const order = readingOrder(tree);
  const at = order.findIndex((read) => read.pageId === page.pageId);
  const parent = page.parentId === null ? undefined : tree.pages.get(page.parentId);
  const previous = at > 0 ? order[at - 1] : undefined;
  const next = at !== -1 && at + 1 < order.length ? order[at + 1] : undefined;
  return {
    canonical: refTo(page),
    alternates: [],
    ...(previous ? { previous: refTo(previous) } : {}),
    ...(next ? { next: refTo(next) } : {}),
    ...(parent ? { parent: refTo(parent) } : {}),
  };
}
