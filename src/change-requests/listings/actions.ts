import { createHash } from 'node:crypto';
import { paginate, type Page } from '../../core/pagination.js';
import { organizationRole } from '../../access/membership.js';
import { findSpaceAsMember } from '../../access/spaces.js';
import { changeRequestIn } from '../../content/change-request-access.js';
import { presentChangeRequest } from '../../content/change-request-present.js';
import type { ChangeRequestFields } from '../../content/change-request-queries.js';
import type { ChangeRequest } from '../../content/change-request-schemas.js';
import type { Context } from '../../context.js';
import { emailVisibilityFor } from '../../users/user-queries.js';
import { presentUser } from '../../users/users.js';
import {
  changeRequestContributors,
  countChangeRequestsIn,
  listChangeRequestsIn,
  type ListFilters,
  type ListScope,
} from './queries.js';
import type { ChangeRequestContributor, OrganizationChangeRequestsInput, SpaceChangeRequestsInput } from './schemas.js';

/** A short, stable name for a list's scope and filters, so that a cursor is only accepted by the list that made it. */
function listKey(scope: ListScope, filters: ListFilters): string {
  const text = JSON.stringify([scope, filters]);
  return `change-requests:${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
}

/** A page of change requests as the caller, a member of their organization, sees them. */
async function presentPage(
  context: Context,
  userId: string,
  rows: Page<ChangeRequestFields>,
  organizationId: string,
): Promise<Page<ChangeRequest>> {
  const members = rows.items.flatMap((row) => (row.author_is_member && row.author_id ? [row.author_id] : []));
  const authors = rows.items.map((row) => row.author_id);
  const emails = await emailVisibilityFor(context.db, userId, authors, organizationId, members);
  return { ...rows, items: rows.items.map((row) => presentChangeRequest(row, context.urls, emails)) };
}

async function pageOf(
  context: Context,
  query: { page?: string; limit?: number },
  scope: ListScope,
  filters: ListFilters,
) {
  const page = context.cursors.request(listKey(scope, filters), { ...query, order: 'desc' });
  return paginate(context.cursors, page, {
    rows: () => listChangeRequestsIn(context.db, page, scope, filters),
    count: () => countChangeRequestsIn(context.db, scope, filters),
    keyOf: (row) => ({ createdAt: filters.orderBy === 'updatedAt' ? row.updated_at : row.created_at, id: row.id }),
    toItem: (row) => row,
  });
}

const filtersOf = (
  query: SpaceChangeRequestsInput | OrganizationChangeRequestsInput,
  statuses: ListFilters['statuses'],
): ListFilters => ({
  statuses: [...statuses].sort(),
  orderBy: query.orderBy,
  ...(query.creator !== undefined ? { creator: query.creator } : {}),
  ...(query.contributor !== undefined ? { contributor: query.contributor } : {}),
  ...(query.requestedReviewer !== undefined ? { requestedReviewer: query.requestedReviewer } : {}),
});

/** An empty list, for filters on what this service never links a change request to (site topics, style guides). */
const NOTHING: Page<ChangeRequest> = { count: 0, items: [] };

/** A page of the space's change requests with one status (default open), filtered as asked. */
export async function listSpaceChangeRequests(
  context: Context,
  userId: string,
  spaceId: string,
  query: SpaceChangeRequestsInput,
): Promise<Page<ChangeRequest>> {
  const { space } = await findSpaceAsMember(context, spaceId, userId);
  if (query.topic !== undefined) return NOTHING;
  const rows = await pageOf(context, query, { kind: 'space', spaceId: space.id }, filtersOf(query, [query.status]));
  return presentPage(context, userId, rows, space.organization_id);
}

/**
 * A page of the change requests of the organization's live spaces the caller
 * reads: a member's, every space's; a guest's, those of the spaces granted to
 * them or their teams. Non-members get a 404.
 */
export async function listOrganizationChangeRequests(
  context: Context,
  userId: string,
  organizationId: string,
  query: OrganizationChangeRequestsInput,
): Promise<Page<ChangeRequest>> {
  const role = await organizationRole(context.db, organizationId, userId);
  if (query.topic !== undefined || query.site !== undefined || query.styleguideRun !== undefined) return NOTHING;
  const space = query.space !== undefined ? { spaceId: query.space } : {};
  const scope: ListScope =
    role === null
      ? { kind: 'guest', organizationId, userId, ...space }
      : { kind: 'organization', organizationId, ...space };
  const rows = await pageOf(context, query, scope, filtersOf(query, query.status));
  return presentPage(context, userId, rows, organizationId);
}

/** Who wrote in the change request, most recent first, for members with a role on the space. */
export async function listChangeRequestContributors(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
): Promise<Page<ChangeRequestContributor>> {
  const { space } = await findSpaceAsMember(context, spaceId, userId);
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  const rows = await changeRequestContributors(context.db, space.organization_id, changeRequest.id);
  const emails = await emailVisibilityFor(
    context.db,
    userId,
    rows.map((row) => row.id),
    space.organization_id,
  );
  return {
    count: Number(rows[0]?.total ?? 0),
    items: rows.map((row) => ({
      user: presentUser(
        { id: row.id, displayName: row.display_name, email: row.email, photoUrl: row.photo_url },
        context.urls,
        emails,
      ),
      count: Number(row.count),
      updatedAt: new Date(row.updated_at).toISOString(),
      actionType: 'edit' as const,
    })),
  };
}
