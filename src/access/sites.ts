import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Role } from '../db/types.js';
import { contentRole, grantIsFor, type SqlValue } from './grants.js';
import { membershipColumn, type CarriedMembership } from './membership.js';

/**
 * The roles of the grants reaching `userId` on the site `siteId`, theirs and
 * their teams', as an array (SQL): one lookup in the site's grants.
 */
export function grantRolesOnSite(
  siteId: SqlValue,
  organizationId: SqlValue,
  userId: string,
): RawBuilder<Role[] | null> {
  return sql<Role[] | null>`(select array_agg(g.role) from content_grants g
    where g.site_id = ${siteId} and ${grantIsFor(userId, organizationId)})`;
}

/**
 * The caller's role on a site: the strongest of their organization role and
 * the roles given to them or their teams on the site, as for a space. Guests
 * have only what is given; someone who is not an active member, nothing.
 */
export function siteRole(caller: CarriedMembership, grants: readonly Role[] | null): Role | null {
  return contentRole({ isMember: caller !== null, memberRole: caller?.role ?? null, levels: [], grants: grants ?? [] });
}

/** A site of the organization with what gives the caller a role on it. */
export interface SiteWithAccess {
  caller: CarriedMembership;
  grant_roles: Role[] | null;
}

/** The site's access for the caller, in one statement; undefined when the organization has no such site. */
export async function findSiteWithAccess(
  db: Db,
  organizationId: string,
  siteId: string,
  userId: string,
): Promise<SiteWithAccess | undefined> {
  return db
    .selectFrom('sites')
    .select([
      membershipColumn(organizationId, userId).as('caller'),
      grantRolesOnSite(siteId, organizationId, userId).as('grant_roles'),
    ])
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .executeTakeFirst();
}

/**
 * The roles given to `userId` or their teams on each of these sites of the
 * organization, in one query: what a page of sites needs for its `permissions`.
 */
export async function grantRolesOnSites(
  db: Db,
  organizationId: string,
  siteIds: readonly string[],
  userId: string,
): Promise<Map<string, Role[]>> {
  if (siteIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('content_grants as g')
    .select(['g.site_id', 'g.role'])
    .where('g.organization_id', '=', organizationId)
    .where('g.site_id', 'in', [...siteIds])
    .where(grantIsFor(userId, organizationId))
    .execute();
  const roles = new Map<string, Role[]>();
  for (const row of rows) roles.set(row.site_id!, [...(roles.get(row.site_id!) ?? []), row.role]);
  return roles;
}
