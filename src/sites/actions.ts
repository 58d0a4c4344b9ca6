import { BadRequestError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { containsPattern } from '../core/text.js';
import type { Db } from '../db/database.js';
import type { SitesTable } from '../db/types.js';
import { findMembership, fullRoleOf, requireOrganizationAdmin } from '../access/membership.js';
import type { Role } from '../access/roles.js';
import { grantRolesOnSites, siteRole } from '../access/sites.js';
import { recordEvent } from '../events/record.js';
import type { Context } from '../context.js';
import { changed, recordAuditEvent } from '../audit/record.js';
import { createSpace } from '../spaces/create.js';
import type { Updateable } from 'kysely';
import { hostnameClaimChanges } from '../reader/hostname-claims.js';
import { findSiteAsAdmin, findSiteAsMember, lockSite, siteNotFound } from './access.js';
import { claimBasename, retireBasename } from './basenames.js';
import { presentSite } from './present.js';
import {
  countSites,
  deleteSite as deleteSiteRow,
  findSite,
  insertSite,
  filtersSites,
  listAllSites,
  listSites,
  updateSite,
  type SiteRow,
} from './queries.js';
import type { CreateSiteBody, ListSitesQuery, Site, UpdateSiteBody } from './schemas.js';
import { newSealedVisitorKey } from './secrets.js';
import { liveSpacesIn, insertSiteSpaces } from './site-spaces/queries.js';
import { loadStructure } from './structure/queries.js';
import { updateSection } from './sections/queries.js';
import { buildStructure, hasSections, isDraftSection, siteSpacesIn } from './structure/tree.js';

/** Members of any role read the organization's sites; guests do not see them. */
const SITES_REFUSED = 'list the sites of the organization';

export async function listOrganizationSites(
  context: Context,
  userId: string,
  organizationId: string,
  query: ListSitesQuery,
): Promise<Page<Site>> {
  const filters = {
    space: query.space,
    title: query.title === undefined ? undefined : containsPattern(query.title.toLowerCase()),
    published: query.published,
    types: query.type,
  };
  const page = context.cursors.request(
    `sites:${organizationId}:${query.space ?? ''}:${query.title ?? ''}:${String(query.published ?? '')}:${(query.type ?? []).join(',')}`,
    query,
  );
  const member = { role: fullRoleOf(await findMembership(context.db, organizationId, userId), SITES_REFUSED) };
  const result = await paginate(context.cursors, page, {
    rows: () =>
      filtersSites(filters)
        ? listSites(context.db, page, organizationId, filters)
        : listAllSites(context.db, page, organizationId),
    count: () => countSites(context.db, organizationId, filters),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
  // Each site's permissions follow the caller's role on it: one query for the page's grants.
  const grants =
    member.role === 'admin'
      ? new Map<string, Role[]>()
      : await grantRolesOnSites(
          context.db,
          organizationId,
          result.items.map((row) => row.id),
          userId,
        );
  return {
    ...result,
    items: result.items.map((row) => presentSite(row, context.urls, siteRole(member, grants.get(row.id) ?? null))),
  };
}

/** Creates a site, publishing the given spaces at its root, or a new space made for it. */
export async function createSite(
  context: Context,
  userId: string,
  organizationId: string,
  body: CreateSiteBody,
): Promise<Site> {
  await requireOrganizationAdmin(context.db, organizationId, userId, 'Creating a site');
  const title = body.title ?? 'Docs';
  return context.db.transaction().execute(async (tx) => {
    const id = newId();
    const site = await insertSite(tx, {
      id,
      organization_id: organizationId,
      type: body.type ?? 'basic',
      title,
      visibility: body.visibility ?? 'public',
      auth_private_key_encrypted: newSealedVisitorKey(context.keyring, id),
      created_at: context.clock.now(),
      updated_at: context.clock.now(),
    });
    const spaces =
      typeof body.spaces === 'string'
        ? [await createSpace(tx, context.clock, spaceForSite(organizationId, title))]
        : await spacesOfOrganization(tx, organizationId, body.spaces ?? [], 'body/spaces');
    await insertSiteSpaces(tx, site, null, spaces, new Set(), 0);
    // Read again: the count of its site spaces is kept by the database.
    return presentSite((await findSite(tx, organizationId, site.id))!, context.urls, 'admin');
  });
}

/** A space made for a new site (`spaces: "empty"` or `"sample"`): private, the site publishes it. */
function spaceForSite(organizationId: string, title: string) {
  return {
    organizationId,
    parentId: null,
    title: title.slice(0, 50),
    emoji: null,
    editMode: 'live' as const,
    visibility: 'private' as const,
  };
}

/** The named spaces, each in the organization and not in the trash, in the order given; else 400 naming the first that is not. */
export async function spacesOfOrganization(tx: Db, organizationId: string, ids: readonly string[], field: string) {
  const found = await liveSpacesIn(tx, organizationId, ids);
  return ids.map((id, index) => {
    const space = found.get(id);
    if (!space) throw new BadRequestError(`${field}/${index}: no space "${id}" in this organization`);
    return space;
  });
}

export async function getSite(context: Context, userId: string, organizationId: string, siteId: string): Promise<Site> {
  const { site, role } = await findSiteAsMember(context, organizationId, siteId, userId);
  return presentSite(site, context.urls, role);
}

export async function editSite(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  body: UpdateSiteBody,
): Promise<Site> {
  await findSiteAsAdmin(context, organizationId, siteId, userId, 'Changing a site');
  const presented = await context.db.transaction().execute(async (tx) => {
    const site = await lockSite(tx, organizationId, siteId);
    const changes: Updateable<SitesTable> = { updated_at: context.clock.now() };
    if (body.title !== undefined) changes.title = body.title;
    if (body.visibility !== undefined) changes.visibility = body.visibility;
    if (body.agentsContext !== undefined) changes.agents_context = body.agentsContext;
    if (body.adaptiveContent !== undefined) changes.adaptive_enabled = body.adaptiveContent.enabled;
    if (body.proxy !== undefined) changes.proxy = body.proxy;
    // A hostname is a claim: it waits for its DNS record, whoever else claims it (see custom-hostnames).
    if (body.hostname !== undefined)
      Object.assign(changes, hostnameClaimChanges(context, site.hostname, body.hostname));
    if (body.basename !== undefined) {
      await claimBasename(tx, site, body.basename, context.clock.now());
      changes.basename = body.basename;
    }
    if (body.defaultSiteSection !== undefined || body.defaultSiteSpace !== undefined) {
      await setDefaults(tx, site, body, changes);
    }
    const updated = await updateSite(tx, organizationId, siteId, changes);
    // Who reads it and where: the settings an admin answers for, not its title.
    const settings = (row: typeof site) => ({
      visibility: row.visibility,
      basename: row.basename,
      hostname: row.hostname,
      proxy: row.proxy,
    });
    const difference = changed(settings(site), settings(updated));
    if (difference) {
      await recordAuditEvent(tx, {
        organizationId,
        action: 'site.updated',
        actorId: userId,
        target: { type: 'site', id: siteId, label: updated.title },
        at: context.clock.now(),
        ...difference,
      });
    }
    return presentSite(updated, context.urls, 'admin');
  });
  context.siteStructures.invalidate(siteId);
  // A hostname the site gave up stops routing on this instance at once, on others within a few seconds.
  if (body.hostname !== undefined) await context.siteHostnames.refresh();
  return presented;
}

/**
 * `defaultSiteSection` names one of the site's sections; `defaultSiteSpace`
 * a site space at the root, or in the default section (the new one, when the
 * same request moves it) when the site has sections.
 */
async function setDefaults(tx: Db, site: SiteRow, body: UpdateSiteBody, changes: Updateable<SitesTable>) {
  const structure = buildStructure(await loadStructure(tx, site));
  let defaultSection = structure.defaultSection;
  if (body.defaultSiteSection !== undefined) {
    defaultSection = structure.sections.find((section) => section.id === body.defaultSiteSection);
    if (!defaultSection) {
      throw new BadRequestError(`body/defaultSiteSection: the site has no section "${body.defaultSiteSection}"`);
    }
    if (isDraftSection(defaultSection, structure.groups)) {
      throw new BadRequestError('body/defaultSiteSection: a draft section (or one in a draft group) is not a default');
    }
    if (body.defaultSiteSpace === undefined && structure.defaultSiteSpace.get(defaultSection.id)?.draft === true) {
      throw new BadRequestError(
        'body/defaultSiteSection: the section opens on a draft site space; make one live first',
      );
    }
    changes.default_section_id = defaultSection.id;
  }
  if (body.defaultSiteSpace === undefined) return;
  const listId = hasSections(structure) ? (defaultSection?.id ?? null) : null;
  const named = siteSpacesIn(structure, listId).find((siteSpace) => siteSpace.id === body.defaultSiteSpace);
  if (!named) {
    throw new BadRequestError(
      `body/defaultSiteSpace: no site space "${body.defaultSiteSpace}" ${listId === null ? 'at the site’s root' : 'in the site’s default section'}`,
    );
  }
  if (named.draft) throw new BadRequestError('body/defaultSiteSpace: a draft site space is not a default');
  if (listId === null) changes.default_site_space_id = body.defaultSiteSpace;
  else {
    await updateSection(tx, site.organization_id, listId, { default_site_space_id: body.defaultSiteSpace });
  }
}

export async function removeSite(context: Context, userId: string, organizationId: string, siteId: string) {
  await findSiteAsAdmin(context, organizationId, siteId, userId, 'Deleting a site');
  await context.db.transaction().execute(async (tx) => {
    const site = await lockSite(tx, organizationId, siteId);
    // Its address stays the organization's: nobody else serves pages where it was read.
    await retireBasename(tx, site, null, context.clock.now());
    if (!(await deleteSiteRow(tx, organizationId, siteId))) throw siteNotFound();
    await recordAuditEvent(tx, {
      organizationId,
      action: 'site.deleted',
      actorId: userId,
      target: { type: 'site', id: siteId, label: site.title },
      at: context.clock.now(),
      before: { published: site.published },
    });
  });
  context.siteStructures.invalidate(siteId);
}

export async function setPublished(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  published: boolean,
): Promise<Site> {
  await findSiteAsAdmin(
    context,
    organizationId,
    siteId,
    userId,
    published ? 'Publishing a site' : 'Unpublishing a site',
  );
  const now = context.clock.now();
  const site = await context.db.transaction().execute(async (tx) => {
    const before = await lockSite(tx, organizationId, siteId);
    const updated = await updateSite(tx, organizationId, siteId, { published, updated_at: now });
    if (before.published === published) return updated;
    await recordAuditEvent(tx, {
      organizationId,
      action: published ? 'site.published' : 'site.unpublished',
      actorId: userId,
      target: { type: 'site', id: siteId, label: updated.title },
      at: now,
      before: { published: before.published },
      after: { published },
    });
    if (published) {
      await recordEvent(tx, {
        organizationId,
        type: 'site_published',
        siteId,
        fields: { title: updated.title },
        at: now,
      });
    }
    return updated;
  });
  context.siteStructures.invalidate(siteId);
  return presentSite(site, context.urls, 'admin');
}
