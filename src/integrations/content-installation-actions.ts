import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate, type Page } from '../core/pagination.js';
import { findSpaceAsMember, spaceNotFound } from '../access/spaces.js';
import type { Context } from '../context.js';
import type { Db } from '../db/database.js';
import { recordAuditEvent } from '../audit/record.js';
import type { AuditAction } from '../audit/catalog.js';
import { checkConfiguration } from './configuration.js';
import { writeWithInstallationEvent, type InstallationRef } from './events/emit.js';
import {
  countSiteInstallations,
  countSpaceInstallations,
  deleteSiteInstallation,
  deleteSpaceInstallation,
  findSiteInstallation,
  findSpaceInstallation,
  insertSiteInstallation,
  insertSpaceInstallation,
  listSiteInstallations,
  listSpaceInstallations,
  siteExists,
  updateSiteInstallation,
  updateSpaceInstallation,
  type ContentInstallationChanges,
  type SpaceInstallationFields,
} from './content-installation-queries.js';
import { findInstallationFor, findInstallationOf, type FoundInstallation } from './installation-actions.js';
import { presentSiteInstallation, presentSpaceInstallation } from './present.js';
import type {
  IntegrationConfigurations,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  ListSiteInstallationsQuery,
  ListSpaceInstallationsQuery,
  UpdateInstallationBody,
} from './schemas.js';

/**
 * An installation's spaces and sites. Reading them is as reading the
 * installation. A space is installed on by its admins, within the
 * installation's organization; a site by the admins of its organization, the
 * installation's.
 */

const notOnSpace = () => new NotFoundError('The installation is not on this space');
const notOnSite = () => new NotFoundError('The installation is not on this site');
const siteNotFound = () => new NotFoundError('No site with this id in the installation’s organization');

/** The integration's `target` says where it may be installed: `all`, or only organizations, spaces or sites. */
function requireTarget(found: FoundInstallation, kind: 'space' | 'site'): void {
  const target = found.integration.target;
  if (target !== 'all' && target !== kind) {
    throw new BadRequestError(
      `The integration installs on ${target === 'organization' ? 'organizations' : `${target}s`} only, not on a ${kind}`,
    );
  }
}

function changesOf(
  found: FoundInstallation,
  kind: 'space' | 'site',
  body: UpdateInstallationBody,
  now: Date,
): ContentInstallationChanges {
  const changes: ContentInstallationChanges = { updated_at: now };
  if (body.configuration !== undefined) {
    checkConfiguration((found.integration.configurations as IntegrationConfigurations)[kind], kind, body.configuration);
    changes.configuration = JSON.stringify(body.configuration);
  }
  if (body.externalIds !== undefined) changes.external_ids = [...new Set(body.externalIds)];
  return changes;
}

const readInstallation = (context: Context, callerId: string, name: string, installationId: string) =>
  findInstallationFor(context, callerId, name, installationId, { manage: false, action: 'Reading an installation' });

// ---- Spaces ----

/**
 * The installation, and a space of its organization the caller is an admin
 * of (404 for a space they cannot see or of another organization, 403 when
 * they are not its admin). Being the space's admin is what counts here, not
 * a role in the installation's organization.
 */
async function findSpaceToManage(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  spaceId: string,
  action: string,
): Promise<FoundInstallation> {
  const found = await findInstallationOf(context, callerId, name, installationId);
  const { space, role } = await findSpaceAsMember(context, spaceId, callerId);
  if (space.organization_id !== found.installation.organization_id) throw spaceNotFound();
  if (role !== 'admin') throw new ForbiddenError(`${action} needs the admin role on the space`);
  return found;
}

/** The Space object goes to the caller who is an admin of its organization (and so of every space there). */
const spaceRoleFor = (found: FoundInstallation, extended: boolean | undefined) =>
  extended && found.manages ? ('admin' as const) : undefined;

/** Who an installation's events go to. */
const refOf = (found: FoundInstallation): InstallationRef => ({
  organizationId: found.installation.organization_id,
  integrationId: found.integration.id,
  installationId: found.installation.id,
});

/**
 * `done` (what the write returned), after recording in the audit log, in the
 * write's transaction, that the installation went onto or off the space or
 * site when it did.
 */
async function audited<T>(
  tx: Db,
  done: T,
  context: Context,
  found: FoundInstallation,
  callerId: string,
  action: AuditAction,
  target: { type: 'space' | 'site'; id: string },
): Promise<T> {
  if (!done) return done;
  await recordAuditEvent(tx, {
    organizationId: found.installation.organization_id,
    action,
    actorId: callerId,
    target,
    at: context.clock.now(),
    details: { installationId: found.installation.id, integration: found.integration.name },
  });
  return done;
}

async function presentSpaceById(
  context: Context,
  found: FoundInstallation,
  spaceId: string,
  extended: boolean | undefined,
): Promise<IntegrationSpaceInstallation> {
  const row = await findSpaceInstallation(
    context.db,
    found.installation.id,
    found.installation.organization_id,
    spaceId,
  );
  if (!row) throw notOnSpace();
  return presentSpaceInstallation(row, found.integration.name, context.urls, spaceRoleFor(found, extended));
}

export async function installOnSpace(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  spaceId: string,
  extended: boolean | undefined,
): Promise<IntegrationSpaceInstallation> {
  const found = await findSpaceToManage(context, callerId, name, installationId, spaceId, 'Installing on a space');
  requireTarget(found, 'space');
  const key = {
    installationId: found.installation.id,
    organizationId: found.installation.organization_id,
    at: context.clock.now(),
  };
  const target = { kind: 'space', spaceId } as const;
  if (
    !(await writeWithInstallationEvent(context, refOf(found), target, { setup: {} }, async (tx) =>
      audited(
        tx,
        await insertSpaceInstallation(tx, key, spaceId),
        context,
        found,
        callerId,
        'integration.space_installed',
        {
          type: 'space',
          id: spaceId,
        },
      ),
    ))
  ) {
    throw new ConflictError('The integration is already installed on this space');
  }
  return presentSpaceById(context, found, spaceId, extended);
}

export async function listInstallationSpaces(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  query: ListSpaceInstallationsQuery,
): Promise<Page<IntegrationSpaceInstallation>> {
  const found = await readInstallation(context, callerId, name, installationId);
  const { id, organization_id: organizationId } = found.installation;
  const page = context.cursors.request(`integration-spaces:${id}`, query);
  const role = spaceRoleFor(found, query.extended);
  return paginate(context.cursors, page, {
    rows: () => listSpaceInstallations(context.db, page, id, organizationId),
    count: () => countSpaceInstallations(context.db, id, organizationId),
    keyOf: (row: SpaceInstallationFields) => ({ createdAt: row.created_at, id: row.space_id }),
    toItem: (row) => presentSpaceInstallation(row, found.integration.name, context.urls, role),
  });
}

export async function getSpaceInstallation(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  spaceId: string,
  extended: boolean | undefined,
): Promise<IntegrationSpaceInstallation> {
  const found = await readInstallation(context, callerId, name, installationId);
  return presentSpaceById(context, found, spaceId, extended);
}

export async function updateSpaceInstallationOf(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  spaceId: string,
  body: UpdateInstallationBody,
  extended: boolean | undefined,
): Promise<IntegrationSpaceInstallation> {
  const found = await findSpaceToManage(
    context,
    callerId,
    name,
    installationId,
    spaceId,
    'Updating a space installation',
  );
  const { id, organization_id: organizationId } = found.installation;
  if (!(await findSpaceInstallation(context.db, id, organizationId, spaceId))) throw notOnSpace();
  const changes = changesOf(found, 'space', body, context.clock.now());
  await writeWithInstallationEvent(context, refOf(found), { kind: 'space', spaceId }, { setup: {} }, async (tx) => {
    await updateSpaceInstallation(tx, id, spaceId, changes);
    return true;
  });
  return presentSpaceById(context, found, spaceId, extended);
}

export async function uninstallFromSpace(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  spaceId: string,
): Promise<void> {
  const found = await findSpaceToManage(context, callerId, name, installationId, spaceId, 'Uninstalling from a space');
  const target = { kind: 'space', spaceId } as const;
  const deleted = await writeWithInstallationEvent(context, refOf(found), target, { deleted: {} }, async (tx) =>
    audited(
      tx,
      await deleteSpaceInstallation(tx, found.installation.id, spaceId),
      context,
      found,
      callerId,
      'integration.space_uninstalled',
      { type: 'space', id: spaceId },
    ),
  );
  if (!deleted) throw notOnSpace();
}

// ---- Sites ----

/** The installation, managed by the caller, and a site of its organization (else a 404). */
async function findSiteToManage(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  siteId: string,
  action: string,
): Promise<FoundInstallation> {
  const found = await findInstallationFor(context, callerId, name, installationId, { manage: true, action });
  if (!(await siteExists(context.db, found.installation.organization_id, siteId))) throw siteNotFound();
  return found;
}

async function presentSiteById(
  context: Context,
  found: FoundInstallation,
  siteId: string,
): Promise<IntegrationSiteInstallation> {
  const row = await findSiteInstallation(context.db, found.installation.id, found.installation.organization_id, siteId);
  if (!row) throw notOnSite();
  return presentSiteInstallation(row, found.integration.name, context.urls);
}

export async function installOnSite(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  siteId: string,
): Promise<IntegrationSiteInstallation> {
  const found = await findSiteToManage(context, callerId, name, installationId, siteId, 'Installing on a site');
  requireTarget(found, 'site');
  const key = {
    installationId: found.installation.id,
    organizationId: found.installation.organization_id,
    at: context.clock.now(),
  };
  const target = { kind: 'site', siteId } as const;
  if (
    !(await writeWithInstallationEvent(context, refOf(found), target, { setup: {} }, async (tx) =>
      audited(
        tx,
        await insertSiteInstallation(tx, key, siteId),
        context,
        found,
        callerId,
        'integration.site_installed',
        {
          type: 'site',
          id: siteId,
        },
      ),
    ))
  ) {
    throw new ConflictError('The integration is already installed on this site');
  }
  return presentSiteById(context, found, siteId);
}

export async function listInstallationSites(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  query: ListSiteInstallationsQuery,
): Promise<Page<IntegrationSiteInstallation>> {
  const found = await readInstallation(context, callerId, name, installationId);
  const { id, organization_id: organizationId } = found.installation;
  const page = context.cursors.request(`integration-sites:${id}`, query);
  return paginate(context.cursors, page, {
    rows: () => listSiteInstallations(context.db, page, id, organizationId),
    count: () => countSiteInstallations(context.db, id, organizationId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.site_id }),
    toItem: (row) => presentSiteInstallation(row, found.integration.name, context.urls),
  });
}

export async function getSiteInstallation(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  siteId: string,
): Promise<IntegrationSiteInstallation> {
  const found = await readInstallation(context, callerId, name, installationId);
  return presentSiteById(context, found, siteId);
}

export async function updateSiteInstallationOf(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  siteId: string,
  body: UpdateInstallationBody,
): Promise<IntegrationSiteInstallation> {
  const found = await findSiteToManage(context, callerId, name, installationId, siteId, 'Updating a site installation');
  const { id, organization_id: organizationId } = found.installation;
  if (!(await findSiteInstallation(context.db, id, organizationId, siteId))) throw notOnSite();
  const changes = changesOf(found, 'site', body, context.clock.now());
  await writeWithInstallationEvent(context, refOf(found), { kind: 'site', siteId }, { setup: {} }, async (tx) => {
    await updateSiteInstallation(tx, id, siteId, changes);
    return true;
  });
  return presentSiteById(context, found, siteId);
}

export async function uninstallFromSite(
  context: Context,
  callerId: string,
  name: string,
  installationId: string,
  siteId: string,
): Promise<void> {
  const found = await findSiteToManage(context, callerId, name, installationId, siteId, 'Uninstalling from a site');
  const target = { kind: 'site', siteId } as const;
  const deleted = await writeWithInstallationEvent(context, refOf(found), target, { deleted: {} }, async (tx) =>
    audited(
      tx,
      await deleteSiteInstallation(tx, found.installation.id, siteId),
      context,
      found,
      callerId,
      'integration.site_uninstalled',
      { type: 'site', id: siteId },
    ),
  );
  if (!deleted) throw notOnSite();
}
