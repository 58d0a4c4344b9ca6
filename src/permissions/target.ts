import type { DefaultLevel, Role } from '../db/types.js';
import { ForbiddenError, NotFoundError } from '../core/errors.js';
import { findVisibleCollection } from '../access/collections.js';
import { findSiteWithAccess, siteRole } from '../access/sites.js';
import { findSpaceAsMember } from '../access/spaces.js';
import type { Context } from '../context.js';
import { chainsOf } from '../hierarchy/walk.js';
import type { GrantTarget } from './queries.js';
import { rankOf } from '../access/roles.js';
import type { ReachScope } from './reach-queries.js';

/** A default level set on the content or a collection above it, where it raises members. */
export interface SetLevel {
  role: Role;
  space?: string;
  collection?: string;
}

/** A space, collection or site whose grants the caller reads or manages, as they may see it. */
export interface FoundTarget {
  target: GrantTarget;
  organizationId: string;
  /** The caller's role in the organization: never null here, guests are refused. */
  callerOrganizationRole: Role;
  /** The caller's role on the content. */
  callerRole: Role;
  /** Where the reach of everyone in the organization is computed. */
  scope: ReachScope;
  levels: SetLevel[];
}

const isRole = (level: DefaultLevel): level is Role => level !== null && level !== 'inherit';

/**
 * The target, or 404 where the caller does not see it as a member (visibility
 * opens nothing here: who reaches content is the workshop's, not the
 * published side), or 403 for a guest: like the organization's rosters,
 * who may reach content is for its members with a role.
 */
async function findTarget(context: Context, target: GrantTarget, userId: string): Promise<FoundTarget> {
  const found =
    target.kind === 'space'
      ? await spaceTarget(context, target.id, userId)
      : target.kind === 'collection'
        ? await collectionTarget(context, target.id, userId)
        : await siteTarget(context, target.organizationId, target.id, userId);
  if (found.memberRole === null) throw new ForbiddenError(`Guests cannot see or change who can reach a ${target.kind}`);
  const chains = await chainsOf(context.db, found.chainStart ? [found.chainStart] : []);
  const chain = found.chainStart ? (chains.get(found.chainStart) ?? []) : [];
  const levels: SetLevel[] = [
    ...(found.ownLevel !== undefined && isRole(found.ownLevel) ? [{ role: found.ownLevel, space: target.id }] : []),
    ...chain.flatMap((link) => (isRole(link.level) ? [{ role: link.level, collection: link.id }] : [])),
  ];
  const levelRank = levels.length > 0 ? Math.max(...levels.map((level) => rankOf(level.role))) : null;
  return {
    target,
    organizationId: found.organizationId,
    callerOrganizationRole: found.memberRole,
    callerRole: found.role,
    scope: {
      organizationId: found.organizationId,
      spaceId: target.kind === 'space' ? target.id : null,
      chainIds: chain.map((link) => link.id),
      levelRank,
    },
    levels,
  };
}

async function spaceTarget(context: Context, spaceId: string, userId: string) {
  const { space, role } = await findSpaceAsMember(context, spaceId, userId);
  return {
    organizationId: space.organization_id,
    memberRole: space.member_role,
    role,
    ownLevel: space.default_level,
    chainStart: space.parent_id,
  };
}

async function collectionTarget(context: Context, collectionId: string, userId: string) {
  const { collection, role } = await findVisibleCollection(context.db, collectionId, userId);
  return {
    organizationId: collection.organization_id,
    memberRole: collection.member_role,
    // Found visible: the caller has at least read.
    role: role!,
    ownLevel: undefined,
    chainStart: collection.id,
  };
}

/** A site has no collections above it nor default levels: its reach is the organization roles and its grants. */
async function siteTarget(context: Context, organizationId: string, siteId: string, userId: string) {
  const found = await findSiteWithAccess(context.db, organizationId, siteId, userId);
  const role = found ? siteRole(found.caller, found.grant_roles) : null;
  if (!found || !role) throw new NotFoundError('No site with this id is visible to you');
  return {
    organizationId,
    // A role on the site needs an active membership: caller is there.
    memberRole: found.caller!.role,
    role,
    ownLevel: undefined,
    chainStart: null,
  };
}

/** The target for reading its grants and reach: members with a role on it. */
export function findTargetToRead(context: Context, target: GrantTarget, userId: string): Promise<FoundTarget> {
  return findTarget(context, target, userId);
}

/** The target for changing its grants: its admins. */
export async function findTargetToManage(context: Context, target: GrantTarget, userId: string): Promise<FoundTarget> {
  const found = await findTarget(context, target, userId);
  if (found.callerRole !== 'admin')
    throw new ForbiddenError(`Changing who can reach a ${target.kind} needs the admin role on it`);
  return found;
}
