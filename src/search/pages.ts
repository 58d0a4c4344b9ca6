import { createHash } from 'node:crypto';
import { DEFAULT_PAGE_SIZE, type Page } from '../core/pagination.js';
import type { Context } from '../context.js';
import { presentPageHits, presentSpaceHits, type SearchPageResult, type SearchSpaceResult } from './present.js';
import { isEmptyQuery, parseQuery, type ParsedQuery } from './query.js';
import { searchPages, searchSpaces, type SearchPosition, type SearchScope } from './search.js';

export interface SearchRequest {
  query: string;
  page?: string;
  limit?: number;
}

/**
 * Runs one page of a search: a cursor belongs to one search (the list it
 * names is a hash of what was searched and the query), and one more hit than
 * the page is fetched to learn whether a next page exists. A cursor holds the
 * last hit's position and, last, how many pages the results showed before:
 * the next page ranks its pages on from there.
 */
async function pageOfHits<Hit, Item>(
  context: Context,
  searched: string,
  request: SearchRequest,
  search: (
    parsed: ParsedQuery,
    page: { limit: number; after: SearchPosition | undefined },
  ) => Promise<{ hits: Hit[]; total: number }>,
  position: { of: (hit: Hit) => string[]; size: number; pagesOf: (hits: Hit[]) => number },
  present: (hits: Hit[], ranked: number) => Promise<Item[]>,
): Promise<Page<Item>> {
  const list = `search:${createHash('sha256').update(`${searched}\n${request.query}`).digest('base64url').slice(0, 22)}`;
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const cursor = request.page ? context.cursors.decodePosition(request.page, list, position.size + 1) : undefined;
  const after = cursor?.slice(0, position.size);
  const ranked = cursor ? Number(cursor[position.size]) : 0;
  const parsed = parseQuery(request.query);
  if (isEmptyQuery(parsed)) return { count: 0, items: [] };
  const found = await search(parsed, { limit: limit === 0 ? 0 : limit + 1, after });
  const hits = found.hits.slice(0, limit);
  const page: Page<Item> = { count: found.total, items: await present(hits, ranked) };
  if (limit > 0 && found.hits.length > limit) {
    const shown = String(ranked + position.pagesOf(hits));
    page.next = { page: context.cursors.encodePosition(list, [...position.of(hits.at(-1)!), shown]) };
  }
  return page;
}

/** A page of the matching pages of `scope`, best first; `searched` names the scope for its cursors. */
export function searchPagesPage(
  context: Context,
  scope: SearchScope,
  searched: string,
  request: SearchRequest,
): Promise<Page<SearchPageResult>> {
  return pageOfHits(
    context,
    searched,
    request,
    (parsed, page) => searchPages(context.db, scope, parsed, page),
    { of: (hit) => [hit.score, hit.spaceId, hit.pageId], size: 3, pagesOf: (hits) => hits.length },
    (hits, ranked) => presentPageHits(context, scope.organizationId, hits, ranked),
  );
}

/** A page of the spaces of `scope` with matching pages, grouped by space, best first. */
export function searchSpacesPage(
  context: Context,
  scope: SearchScope,
  searched: string,
  request: SearchRequest,
): Promise<Page<SearchSpaceResult>> {
  return pageOfHits(
    context,
    searched,
    request,
    (parsed, page) => searchSpaces(context.db, scope, parsed, page),
    {
      of: (hit) => [hit.score, hit.spaceId],
      size: 2,
      pagesOf: (hits) => hits.reduce((sum, hit) => sum + hit.pages.length, 0),
    },
    (hits, ranked) => presentSpaceHits(context, scope.organizationId, hits, ranked),
  );
}
