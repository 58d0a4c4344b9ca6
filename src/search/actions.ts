import { createHash } from 'node:crypto';
import { DEFAULT_PAGE_SIZE, type Page } from '../core/pagination.js';
import { organizationRole } from '../model/access/membership.js';
import { findVisibleSpace } from '../model/access/spaces.js';
import type { Context } from '../model/context.js';
import {
  presentPageHits,
  presentSpaceHits,
  type SearchPageResult,
  type SearchSpaceResult,
} from '../model/search/present.js';
import { isEmptyQuery, parseQuery, type ParsedQuery } from '../model/search/query.js';
import { searchPages, searchSpaces, type SearchPosition } from '../model/search/search.js';

interface SearchRequest {
  query: string;
  page?: string;
  limit?: number;
}

/**
 * Runs one page of a search: a cursor belongs to one search (the list it
 * names holds the scope and a hash of the query), and one more hit than the
 * page is fetched to learn whether a next page exists.
 */
async function pageOfHits<Hit, Item>(
  context: Context,
  scope: string,
  request: SearchRequest,
  search: (
    parsed: ParsedQuery,
    page: { limit: number; after: SearchPosition | undefined },
  ) => Promise<{ hits: Hit[]; total: number }>,
  /** Where a hit sits: its rank and its ids, `positionSize` strings. */
  positionOf: (hit: Hit) => string[],
  positionSize: number,
  present: (hits: Hit[]) => Promise<Item[]>,
): Promise<Page<Item>> {
  const list = `search:${scope}:${createHash('sha256').update(request.query).digest('base64url').slice(0, 22)}`;
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const after = request.page ? context.cursors.decodePosition(request.page, list, positionSize) : undefined;
  const parsed = parseQuery(request.query);
  if (isEmptyQuery(parsed)) return { count: 0, items: [] };
  const found = await search(parsed, { limit: limit === 0 ? 0 : limit + 1, after });
  const hits = found.hits.slice(0, limit);
  const page: Page<Item> = { count: found.total, items: await present(hits) };
  if (limit > 0 && found.hits.length > limit)
    page.next = { page: context.cursors.encodePosition(list, positionOf(hits.at(-1)!)) };
  return page;
}

/**
 * Searches the space's current content: its published side, so anyone who
 * may read the space may search it (a visitor of a public or unlisted space,
 * of a share-link one with its key).
 */
export async function searchSpace(
  context: Context,
  userId: string,
  spaceId: string,
  request: SearchRequest & { shareKey?: string },
): Promise<Page<SearchPageResult>> {
  const { space } = await findVisibleSpace(context, spaceId, userId, { shareKey: request.shareKey });
  const organizationId = space.organization_id;
  return pageOfHits(
    context,
    `space:${space.id}`,
    request,
    (parsed, page) => searchPages(context.db, { kind: 'space', organizationId, spaceId: space.id }, parsed, page),
    (hit) => [hit.score, hit.spaceId, hit.pageId],
    3,
    (hits) => presentPageHits(context, organizationId, hits),
  );
}

/**
 * Searches every space of the organization the caller may read, grouped by
 * space: for a member, every space; for a guest, who reads only what is
 * published to anyone, the public ones. Non-members get a 404, as for every
 * other read of the organization.
 */
export async function searchOrganization(
  context: Context,
  userId: string,
  organizationId: string,
  request: SearchRequest,
): Promise<Page<SearchSpaceResult>> {
  const publicOnly = (await organizationRole(context.db, organizationId, userId)) === null;
  return pageOfHits(
    context,
    `organization:${organizationId}:${publicOnly ? 'public' : 'all'}`,
    request,
    (parsed, page) => searchSpaces(context.db, { kind: 'organization', organizationId, publicOnly }, parsed, page),
    (hit) => [hit.score, hit.spaceId],
    2,
    (hits) => presentSpaceHits(context, organizationId, hits),
  );
}
