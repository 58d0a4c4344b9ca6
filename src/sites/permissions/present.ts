import type { Urls } from '../../core/urls.js';
import type { Role } from '../../db/types.js';
import { rankOf, roleOfRank } from '../../access/roles.js';
import { everyEmailShown, presentUser } from '../../users/users.js';
import type { SitePermissionOrigin, UserSitePermission } from './schemas.js';

interface SiteReachRow {
  user_id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  last_seen_at: Date | null;
  organization_role: Role | null;
  grant_role: Role | null;
  grant_team: string | null;
  rank: number | null;
}

/** The organization role wins a tie: a grant is the origin only where it raises the user. */
function originOf(row: SiteReachRow, organizationId: string, siteId: string): SitePermissionOrigin {
  const raised =
    row.grant_role !== null &&
    (row.organization_role === null || rankOf(row.grant_role) > rankOf(row.organization_role));
  if (!raised) return { type: 'organization', organization: organizationId };
  return row.grant_team === null
    ? { type: 'site', site: siteId, reason: 'member' }
    : { type: 'site', site: siteId, reason: 'team', team: row.grant_team };
}

export function presentSiteReach(
  row: SiteReachRow,
  organizationId: string,
  siteId: string,
  urls: Urls,
): UserSitePermission {
  const reaching: UserSitePermission = {
    permission: roleOfRank(row.rank!),
    // Everyone listed is a member of the organization, whose records its members see.
    user: presentUser(
      { id: row.user_id, email: row.email, displayName: row.display_name, photoUrl: row.photo_url },
      urls,
      everyEmailShown,
    ),
    origin: originOf(row, organizationId, siteId),
    disabled: false,
  };
  if (row.last_seen_at) reaching.lastSeenAt = row.last_seen_at.toISOString();
  return reaching;
}
