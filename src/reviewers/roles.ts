import type { Db } from '../db/database.js';
import type { DefaultLevel, Role } from '../db/types.js';
import { effectiveRole } from '../model/access/membership.js';

/** What a user's role on a space is read from, besides the user. */
export interface SpaceForRoles {
  organization_id: string;
  default_level: DefaultLevel;
  /** The default levels of the space's collections, nearest first. */
  chain_levels: readonly DefaultLevel[] | null;
}

/**
 * The role each of `userIds` has on the space, null for none: an active
 * member's organization role raised by the default levels of the space and
 * its collections. The one place the reviewer checks take a user's role on a
 * space from, so that a rule that counts more (grants on the space) changes
 * it here alone.
 */
export async function userRolesOnSpace(
  db: Db,
  space: SpaceForRoles,
  userIds: readonly string[],
): Promise<Map<string, Role | null>> {
  if (userIds.length === 0) return new Map();
  const members = await db
    .selectFrom('organization_members')
    .select(['user_id', 'role'])
    .where('organization_id', '=', space.organization_id)
    .where('user_id', 'in', [...userIds])
    .where('disabled', '=', false)
    .execute();
  const levels = [space.default_level, ...(space.chain_levels ?? [])];
  const memberRoles = new Map(members.map((member) => [member.user_id, member.role]));
  return new Map(userIds.map((userId) => [userId, effectiveRole(memberRoles.get(userId), levels)]));
}
