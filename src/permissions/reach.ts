import { paginate, type Page } from '../core/pagination.js';
import type { Context } from '../context.js';
import { grantsReachingUsers, type ReachingGrant } from '../access/grants.js';
import { everyEmailShown, presentUser } from '../users/users.js';
import type { GrantTarget } from './queries.js';
import { reachReasons } from './present.js';
import { rankOf, roleOfRank } from '../access/roles.js';
import { countReachingMembers, listReachingMembers } from './reach-queries.js';
import type { ListReachQuery, ReachingUser } from './schemas.js';
import { findTargetToRead } from './target.js';

/**
 * Everyone who can reach the space or collection, by when they joined the
 * organization, with their role on it and why; `role` keeps those with that
 * role. Two queries for a page: the members with their role, then the grants
 * behind it.
 */
export async function listReachingUsers(
  context: Context,
  callerId: string,
  target: GrantTarget,
  query: ListReachQuery,
): Promise<Page<ReachingUser>> {
  const found = await findTargetToRead(context, target, callerId);
  const roleRank = query.role ? rankOf(query.role) : null;
  const page = context.cursors.request(`reach:${target.kind}:${target.id}:${query.role ?? 'all'}`, {
    ...query,
    order: 'asc',
  });
  const result = await paginate(context.cursors, page, {
    rows: () => listReachingMembers(context.db, page, found.scope, roleRank),
    count: () => countReachingMembers(context.db, found.scope, roleRank),
    keyOf: (row) => ({ createdAt: row.joined_at, id: row.user_id }),
    toItem: (row) => row,
  });
  const { organizationId, spaceId, chainIds } = found.scope;
  const grants = await grantsReachingUsers(
    context.db,
    organizationId,
    { spaces: spaceId ? [spaceId] : [], collections: chainIds },
    result.items.map((row) => row.user_id),
  );
  const grantsOf = new Map<string, ReachingGrant[]>();
  for (const grant of grants) grantsOf.set(grant.user_id, [...(grantsOf.get(grant.user_id) ?? []), grant]);
  return {
    ...result,
    items: result.items.map((row) => ({
      permission: roleOfRank(row.rank!),
      // Everyone listed is a member of the organization, whose records its members see.
      user: presentUser(
        { id: row.user_id, email: row.email, displayName: row.display_name, photoUrl: row.photo_url },
        context.urls,
        everyEmailShown,
      ),
      via: reachReasons(row.organization_role, found.levels, grantsOf.get(row.user_id) ?? []),
    })),
  };
}
