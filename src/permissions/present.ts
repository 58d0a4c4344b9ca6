import type { Role } from '../db/types.js';
import type { Urls } from '../core/urls.js';
import { presentUser, type EmailVisibility } from '../users/users.js';
import type { ReachingGrant } from '../access/grants.js';
import type { ReachReason, UserPermission } from './schemas.js';
import type { SetLevel } from './target.js';

interface GrantedUserRow {
  role: Role;
  user_id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
}

export function presentGrantedUser(row: GrantedUserRow, urls: Urls, emails: EmailVisibility): UserPermission {
  return {
    permission: row.role,
    user: presentUser(
      { id: row.user_id, email: row.email, displayName: row.display_name, photoUrl: row.photo_url },
      urls,
      emails,
    ),
  };
}

/** Where a grant or level is: on the space or a collection. */
function place(where: { space_id?: string | null; collection_id?: string | null }) {
  return where.space_id ? { space: where.space_id } : where.collection_id ? { collection: where.collection_id } : {};
}

/**
 * Why a user reaches the content: their organization role and the default
 * levels (members with a role only), then their grants and their teams'.
 */
export function reachReasons(
  organizationRole: Role | null,
  levels: readonly SetLevel[],
  grants: readonly ReachingGrant[],
): ReachReason[] {
  const fromOrganization: ReachReason[] =
    organizationRole === null
      ? []
      : [
          { kind: 'organization', role: organizationRole },
          ...levels.map((level): ReachReason => ({ kind: 'default-level', ...level })),
        ];
  return [
    ...fromOrganization,
    ...grants.map((grant): ReachReason =>
      grant.team_id
        ? { kind: 'team', role: grant.role, team: grant.team_id, ...place(grant) }
        : { kind: 'user', role: grant.role, ...place(grant) },
    ),
  ];
}
