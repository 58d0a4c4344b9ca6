import { hasGrants } from '../access/grants.js';
import { siteRole as siteRoleOf } from '../access/sites.js';
import type { Role } from '../access/roles.js';
import type { Context } from '../context.js';
import { findSiteAsMember, siteNotFound } from './access.js';
import { siteCustomization } from './customization/settings.js';
import { presentSite, presentStructure } from './present.js';
import { findSiteFor, type SiteRow } from './queries.js';
import { memberView, validShareKey, visitorView } from './structure/view.js';

/**
 * A site's structure as JSON bytes, from the short-lived cache when this viewer's
 * form of it is there. The structure is read whole and is the largest answer
 * a site gives, and its readers are many: each instance keeps it a moment
 * (SITE_CACHE_TTL_MS), dropping it at once on a change it makes itself.
 */
async function cachedJson(context: Context, siteId: string, key: string, fresh: boolean, make: () => Promise<string>) {
  const hit = fresh ? undefined : context.siteStructures.get(siteId, key);
  if (hit !== undefined) return hit;
  const generation = context.siteStructures.generationOf(siteId);
  const json = Buffer.from(await make());
  context.siteStructures.set(siteId, key, json, generation);
  return json;
}

/**
 * Whom a cached structure is for: members see the same one per role, but
 * grants make a member's roles their own (grant changes clear the cache).
 */
async function viewerKey(context: Context, organizationId: string, userId: string, role: Role): Promise<string> {
  return (await hasGrants(context.db, organizationId, userId)) ? `user:${userId}` : `role:${role}`;
}

/** The site's whole structure, for its members (with their role on each space). */
export async function siteStructureJson(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  shareKey: string | undefined,
  /** Read from the database, not the short-lived cache: the answer is kept under the version just read. */
  fresh = false,
): Promise<Buffer> {
  const { site, role, member } = await findSiteAsMember(context, organizationId, siteId, userId);
  const key = await validShareKey(context, site, shareKey);
  const viewer = await viewerKey(context, site.organization_id, userId, role);
  return cachedJson(context, site.id, `structure:${viewer}:${key ?? ''}`, fresh, async () =>
    JSON.stringify(presentStructure(await memberView(context, site, member, key))),
  );
}

/**
 * What the site's audience is shown. Members see it whatever its state (a
 * preview before it is published); anyone else only once it is published,
 * and only where its visibility opens it: public and unlisted to all, a
 * share-link site with an active link's key. Visitor-auth sites open to
 * visitors through the web reader's signed tokens, not through the API.
 * Whether the caller may see it is settled before anything of the site is read.
 */
export async function publishedSiteJson(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  shareKey: string | undefined,
  /** As for siteStructureJson. */
  fresh = false,
): Promise<Buffer> {
  const { site, role, siteRole, key } = await findSiteForAudience(context, userId, organizationId, siteId, shareKey);
  const viewer = role ? await viewerKey(context, site.organization_id, userId, role) : 'visitor';
  return cachedJson(context, site.id, `published:${viewer}:${key ?? ''}`, fresh, async () => {
    const view = role
      ? await memberView(context, site, { userId, role }, key, { published: true })
      : await visitorView(context, site, key);
    return JSON.stringify({
      object: 'published-content-site',
      site: presentSite(site, context.urls, siteRole),
      structure: presentStructure(view),
      // Site spaces take the site's customization: none is overridden one by one on this service.
      customizations: { site: siteCustomization(site.customization, site), siteSpaces: {} },
      // No integration adds scripts to sites on this service.
      scripts: [],
    });
  });
}

/**
 * The site, if the caller is of its audience: a member of its organization
 * (role null for a guest, who is treated as a visitor), or a visitor of a
 * published site its visibility opens to them. Else a 404. `key` is the
 * share key when it opens one of the site's active links; `siteRole` the
 * member's role on the site, raised by what is given to them there.
 */
export async function findSiteForAudience(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  shareKey: string | undefined,
): Promise<{ site: SiteRow; role: Role | null; siteRole: Role | null; key: string | undefined }> {
  const found = await findSiteFor(context.db, organizationId, siteId, userId);
  if (!found) throw siteNotFound();
  const { caller, grant_roles: grants, ...site } = found;
  const role = caller?.role ?? null;
  const key = await validShareKey(context, site, shareKey);
  if (!role && !openToVisitors(site, key)) throw siteNotFound();
  return { site, role, siteRole: role ? siteRoleOf(caller, grants) : null, key };
}

function openToVisitors(site: SiteRow, validKey: string | undefined): boolean {
  if (!site.published) return false;
  if (site.visibility === 'public' || site.visibility === 'unlisted') return true;
  return site.visibility === 'share-link' && validKey !== undefined;
}
