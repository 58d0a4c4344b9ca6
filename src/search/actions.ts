import type { Page } from '../core/pagination.js';
import { organizationRole } from '../access/membership.js';
import { findVisibleSpace } from '../access/spaces.js';
import type { Context } from '../context.js';
import { searchPagesPage, searchSpacesPage, type SearchRequest } from './pages.js';
import type { SearchPageResult, SearchSpaceResult } from './present.js';

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
  const scope = { kind: 'space', organizationId: space.organization_id, spaceId: space.id } as const;
  return searchPagesPage(context, scope, `space:${space.id}`, request);
}

/**
 * Searches every space of the organization the caller may read, grouped by
 * space: for a member, every space; for a guest, those granted to them or
 * their teams, and nothing else. Non-members get a 404, as for every other
 * read of the organization.
 */
export async function searchOrganization(
  context: Context,
  userId: string,
  organizationId: string,
  request: SearchRequest,
): Promise<Page<SearchSpaceResult>> {
  const guest = (await organizationRole(context.db, organizationId, userId)) === null;
  const scope = { kind: 'organization', organizationId, ...(guest ? { guest: userId } : {}) } as const;
  return searchSpacesPage(
    context,
    scope,
    `organization:${organizationId}:${guest ? `guest:${userId}` : 'all'}`,
    request,
  );
}
