import { NotFoundError, ForbiddenError } from '../core/errors.js';
import type { Db } from '../db/database.js';
import type { Role } from '../access/roles.js';
import type { Context } from '../context.js';
import { findSiteFor, lockSiteRow, type SiteRow } from './queries.js';

export const siteNotFound = () => new NotFoundError('No site with this id is visible to you');

export interface SiteAccess {
  site: SiteRow;
  /** The caller's role in the site's organization. */
  role: Role;
}

/**
 * The site, for a member of its organization (any role), or 404: guests and
 * non-members see a site only through its published side.
 */
export async function findSiteAsMember(
  context: Context,
  organizationId: string,
  siteId: string,
  userId: string,
): Promise<SiteAccess> {
  const found = await findSiteFor(context.db, organizationId, siteId, userId);
  const role = found?.caller?.role;
  if (!found || !role) throw siteNotFound();
  const { caller: _caller, ...site } = found;
  return { site, role };
}

/** The site, when the caller is an admin of its organization: 404 as for `findSiteAsMember`, else 403. */
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
