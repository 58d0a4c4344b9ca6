import { ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { requireOrganizationAdmin } from '../access/membership.js';
import type { Context } from '../context.js';
import { changed, recordAuditEvent } from '../audit/record.js';
import type { Membership } from '../orgs/present.js';
import { installationOfPrincipal } from '../access/installation-principal.js';
import { findVisibleIntegration, isAdmin, membershipOf } from './access.js';
import { checkConfiguration } from './configuration.js';
import { writeWithInstallationEvent } from './events/emit.js';
import {
  countInstallations,
  deleteInstallation,
  findInstallation,
  insertInstallation,
  listInstallations as listInstallationRows,
  updateInstallation as updateInstallationRow,
  type InstallationChanges,
  type InstallationWithCaller,
} from './installation-queries.js';
import { presentInstallation } from './present.js';
import type { IntegrationWithCaller } from './queries.js';
import type {
  InstallIntegrationBody,
  IntegrationConfigurations,
  IntegrationInstallation,
  ListInstallationsQuery,
  UpdateInstallationBody,
} from './schemas.js';

/**
 * Installations of an integration on organizations. The admins of the
 * organization it is installed on manage an installation; the admins of the
 * organization that publishes the integration may read it; other members of
 * the organization it is installed on get a 403; anyone else a 404.
 */

export const installationNotFound = () => new NotFoundError('No installation with this id is visible to you');

export interface FoundInstallation {
  integration: IntegrationWithCaller;
  owner: Membership;
  installation: InstallationWithCaller;
  /** The caller is an admin of the organization it is installed on. */
  manages: boolean;
}

/** The installation of a visible integration, whoever the caller is to it; a 404 when there is none. */
export async function findInstallationOf(
  context: Context,
  callerId: string,
  integrationName: string,
  installationId: string,
): Promise<FoundInstallation> {
  const { integration, owner } = await findVisibleIntegration(context, callerId, integrationName);
  const installation = await findInstallation(context.db, integration.id, installationId, callerId);
  if (!installation) throw installationNotFound();
  return { integration, owner, installation, manages: isAdmin(membershipOf(installation)) };
}

/** The installation, if the caller may `need` it (read or manage); else a 404, or a 403 for those who see it. */
export async function findInstallationFor(
  context: Context,
  callerId: string,
  integrationName: string,
  installationId: string,
  need: { manage: boolean; action: string },
): Promise<FoundInstallation> {
  const found = await findInstallationOf(context, callerId, integrationName, installationId);
  if (found.manages || (!need.manage && isAdmin(found.owner))) return found;
  // An installation's own token reads it (the auth lets it name no other).
  if (!need.manage && installationOfPrincipal(callerId) === installationId) return found;
  const here = membershipOf(found.installation);
  if ((here.isMember && here.role !== null) || isAdmin(found.owner)) {
    throw new ForbiddenError(`${need.action} needs the admin role in the organization it is installed on`);
  }
  throw installationNotFound();
}

async function presentById(context: Context, callerId: string, integration: IntegrationWithCaller, id: string) {
  const row = await findInstallation(context.db, integration.id, id, callerId);
  if (!row) throw installationNotFound();
  return presentInstallation(row, integration.name, context.urls);
}

/** Installs the integration on an organization where the caller is an admin: one installation per organization. */
export async function installIntegration(
  context: Context,
  callerId: string,
  integrationName: string,
  body: InstallIntegrationBody,
): Promise<IntegrationInstallation> {
  const { integration } = await findVisibleIntegration(context, callerId, integrationName);
  await requireOrganizationAdmin(context.db, body.organization, callerId, 'Installing an integration');
  if (integration.visibility === 'private' && body.organization !== integration.organization_id) {
    throw new ForbiddenError('A private integration installs only in the organization that publishes it');
  }
  const now = context.clock.now();
  const id = newId();
  const ref = { organizationId: body.organization, integrationId: integration.id, installationId: id };
  const installed = await writeWithInstallationEvent(
    context,
    ref,
    { kind: 'organization' },
    { setup: {} },
    async (tx) => {
      const row = await insertInstallation(tx, {
        id,
        organization_id: body.organization,
        integration_id: integration.id,
        created_at: now,
        updated_at: now,
      });
      if (row) {
        await recordAuditEvent(tx, {
          organizationId: body.organization,
          action: 'integration.installed',
          actorId: callerId,
          target: { type: 'integration-installation', id, label: integration.name },
          at: now,
        });
      }
      return row;
    },
  );
  if (!installed) throw new ConflictError('The integration is already installed on this organization');
  return presentById(context, callerId, integration, installed.id);
}

/**
 * The installations of an integration: all of them for the admins of the
 * organization that publishes it, else those on organizations where the
 * caller is an admin.
 */
export async function listInstallations(
  context: Context,
  callerId: string,
  integrationName: string,
  query: ListInstallationsQuery,
): Promise<Page<IntegrationInstallation>> {
  const { integration, owner } = await findVisibleIntegration(context, callerId, integrationName);
  const filters = { adminUserId: isAdmin(owner) ? undefined : callerId, externalId: query.externalId };
  const page = context.cursors.request(
    `integration-installations:${integration.id}:${filters.adminUserId === undefined ? 'all' : 'admin'}:${query.externalId ?? ''}`,
    query,
  );
  return paginate(context.cursors, page, {
    rows: () => listInstallationRows(context.db, page, integration.id, filters),
    count: () => countInstallations(context.db, integration.id, filters),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => presentInstallation(row, integration.name, context.urls),
  });
}

export async function getInstallation(
  context: Context,
  callerId: string,
  integrationName: string,
  installationId: string,
): Promise<IntegrationInstallation> {
  const { integration, installation } = await findInstallationFor(context, callerId, integrationName, installationId, {
    manage: false,
    action: 'Reading an installation',
  });
  return presentInstallation(installation, integration.name, context.urls);
}

/** Changes the external ids and the configuration, which must fit the integration's account configuration. */
export async function updateInstallation(
  context: Context,
  callerId: string,
  integrationName: string,
  installationId: string,
  body: UpdateInstallationBody,
): Promise<IntegrationInstallation> {
  const { integration, installation } = await findInstallationFor(context, callerId, integrationName, installationId, {
    manage: true,
    action: 'Updating an installation',
  });
  const changes: InstallationChanges = { updated_at: context.clock.now() };
  if (body.configuration !== undefined) {
    const schemas = integration.configurations as IntegrationConfigurations;
    checkConfiguration(schemas.account, 'account', body.configuration);
    changes.configuration = JSON.stringify(body.configuration);
  }
  if (body.externalIds !== undefined) changes.external_ids = [...new Set(body.externalIds)];
  const ref = {
    organizationId: installation.organization_id,
    integrationId: integration.id,
    installationId: installation.id,
  };
  const previous = { status: installation.status, configuration: installation.configuration };
  await writeWithInstallationEvent(context, ref, { kind: 'organization' }, { setup: { previous } }, async (tx) => {
    await updateInstallationRow(tx, installation, changes);
    await recordAuditEvent(tx, {
      organizationId: installation.organization_id,
      action: 'integration.installation_updated',
      actorId: callerId,
      target: { type: 'integration-installation', id: installation.id, label: integration.name },
      at: changes.updated_at,
      ...changed(
        { configuration: installation.configuration, externalIds: installation.external_ids },
        { configuration: body.configuration, externalIds: changes.external_ids },
      ),
    });
    return true;
  });
  return presentById(context, callerId, integration, installation.id);
}

/** Uninstalls from the organization, and so from its spaces and sites. */
export async function uninstallIntegration(
  context: Context,
  callerId: string,
  integrationName: string,
  installationId: string,
): Promise<void> {
  const { integration, installation } = await findInstallationFor(context, callerId, integrationName, installationId, {
    manage: true,
    action: 'Uninstalling an integration',
  });
  const ref = {
    organizationId: installation.organization_id,
    integrationId: integration.id,
    installationId: installation.id,
  };
  const deleted = { deleted: { configuration: installation.configuration } };
  const done = await writeWithInstallationEvent(context, ref, { kind: 'organization' }, deleted, async (tx) => {
    if (!(await deleteInstallation(tx, installation))) return false;
    await recordAuditEvent(tx, {
      organizationId: installation.organization_id,
      action: 'integration.uninstalled',
      actorId: callerId,
      target: { type: 'integration-installation', id: installation.id, label: integration.name },
      at: context.clock.now(),
      before: { configuration: installation.configuration },
    });
    return true;
  });
  if (!done) throw installationNotFound();
}
