import { NotFoundError, ForbiddenError } from '../core/errors.js';
import type { Db } from '../db/database.js';
import type { Role } from '../access/roles.js';
import type { Context } from '../context.js';
import type { Member } from '../access/grants.js';
import { siteRole } from '../access/sites.js';
import { findSiteFor, lockSiteRow, type SiteRow } from './queries.js';

export const siteNotFound = () => new NotFoundError('No site with this id is visible to you');

export interface SiteAccess {
  site: SiteRow;
  /**
   * The caller's role on the site: the strongest of their organization role
   * and the roles given to them or their teams on the site.
   */
  role: Role;
  /** The caller as a member of the organization (role null for a guest): what their roles on spaces start from. */
  member: Member;
}

/**
 * The site, for whoever has a role on it: members of its organization (any
 * role), and guests given a role on the site or through a team; else 404.
 * Others see a site only through its published side.
 */
export async function findSiteAsMember(
  context: Context,
  organizationId: string,
  siteId: string,
  userId: string,
): Promise<SiteAccess> {
  const found = await findSiteFor(context.db, organizationId, siteId, userId);
  const role = found ? siteRole(found.caller, found.grant_roles) : null;
  if (!found || !role) throw siteNotFound();
  const { caller, grant_roles: _grants, ...site } = found;
  return { site, role, member: { userId, role: caller?.role ?? null } };
}

/** The site, when the caller's role on it is admin: 404 as for `findSiteAsMember`, else 403. */
export async function findSiteAsAdmin(
  context: Context,
  organizationId: string,
  siteId: string,
  userId: string,
  action: string,
): Promise<SiteAccess> {
  const access = await findSiteAsMember(context, organizationId, siteId, userId);
  requireSiteAdmin(access.role, action);
  return access;
}

export function requireSiteAdmin(role: Role, action: string): void {
  if (role !== 'admin') throw new ForbiddenError(`${action} needs the admin role in the organization`);
}

/**
 * Locks the site's row for the rest of the transaction: every write to a
 * site's structure (sections, groups, site spaces, their order and defaults)
 * takes it first, so one writer at a time works them out. 404 when the site
 * was deleted meanwhile.
 */
export async function lockSite(tx: Db, organizationId: string, siteId: string): Promise<SiteRow> {
  const site = await lockSiteRow(tx, organizationId, siteId);
  if (!site) throw siteNotFound();
  return site;
}
