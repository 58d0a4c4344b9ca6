import type { Db } from '../db/database.js';
import type { DefaultLevel, Role } from '../db/types.js';
import { effectiveRole, findMembership } from './membership.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { roleAtLeast, strongestRole } from './roles.js';
import { collectionRole } from './collections.js';
import { findCollectionWithAccess } from './collection-queries.js';

export interface Placement {
  memberRole: Role | null;
  /** The caller's role where the content goes: on the parent collection, or in the organization at the top level. */
  parentRole: Role | null;
}

/**
 * The caller's role on content just put under this placement with
 * `defaultLevel`: what reaches it from above, raised by its own default level
 * for a member (nothing is granted on the content itself yet).
 */
export function roleBeneath(placement: Placement, defaultLevel: DefaultLevel): Role | null {
  return strongestRole(placement.parentRole, effectiveRole(placement.memberRole, [defaultLevel]));
}

/**
 * Checks that the user may put content in the organization, at the top level
 * or inside `parentId`: the create role in the organization, or on the parent.
 * `action` names what is being done, for the refusal's message.
 */
export async function checkPlacement(
  db: Db,
  action:
    | 'Creating a space'
    | 'Creating a collection'
    | 'Moving a space'
    | 'Moving a collection'
    | 'Duplicating a space',
  organizationId: string,
  parentId: string | undefined,
  userId: string,
): Promise<Placement> {
  const membership = await findMembership(db, organizationId, userId);
  if (!membership) throw new NotFoundError('No organization with this id is visible to you');
  if (parentId === undefined) {
    if (!roleAtLeast(membership.role, 'create'))
      throw new ForbiddenError(`${action} needs the create role in the organization`);
    return { memberRole: membership.role, parentRole: membership.role };
  }
  const parent = await findCollectionWithAccess(db, parentId, userId);
  const parentRole = parent ? collectionRole(parent) : null;
  if (!parent || parent.organization_id !== organizationId || !roleAtLeast(parentRole, 'read')) {
    throw new BadRequestError(`body/parent: no collection "${parentId}" in this organization`);
  }
  if (!roleAtLeast(parentRole, 'create'))
    throw new ForbiddenError(`${action} here needs the create role on the parent collection`);
  return { memberRole: membership.role, parentRole };
}
