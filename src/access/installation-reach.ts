import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { ForbiddenError, NotFoundError } from '../core/errors.js';
import { isSiteOfInstallation, isSpaceOfInstallation, type InstallationPrincipal } from './installation-principal.js';

/**
 * What an installation's token may call, by operationId, and the integration
 * scope each needs (`none`: any installation, on what it is installed on).
 * Every other operation is refused: an installation reads the published side
 * of its spaces and its own platform calls, and writes nothing a user owns.
 */
export const INSTALLATION_OPERATIONS: Readonly<Record<string, string>> = {
  getSpaceById: 'space:metadata:read',
  getCurrentRevision: 'space:content:read',
  listPages: 'space:content:read',
  listFiles: 'space:content:read',
  getFileById: 'space:content:read',
  getPageById: 'space:content:read',
  getPageByPath: 'space:content:read',
  getIntegrationInstallationById: 'none',
  listIntegrationInstallationSpaces: 'none',
  getIntegrationSpaceInstallation: 'none',
  listIntegrationInstallationSites: 'none',
  getIntegrationSiteInstallation: 'none',
  listIntegrationSpaceInstallations: 'none',
  listIntegrationSiteInstallations: 'none',
  listOrganizationIntegrations: 'none',
  listOrganizationIntegrationsStatus: 'none',
};

/** Path parameters an installation may name (`*`: a page's path); the ones that name a tenant are checked below. */
const REACHABLE_PARAMS = new Set([
  'organizationId',
  'integrationName',
  'installationId',
  'spaceId',
  'siteId',
  'pageId',
  'fileId',
  '*',
]);

const notVisible = (what: string) => new NotFoundError(`No ${what} with this id is visible to you`);

/**
 * Where an installation's token may go: only an operation of
 * INSTALLATION_OPERATIONS whose scope the integration declared, only in the
 * organization it is installed on, only on the spaces and sites it is
 * installed on, and only for its own integration. Anything else it names is
 * a 404, as something it cannot see; an operation it may not call, a 403.
 */
export async function installationReach(
  db: Db,
  principal: InstallationPrincipal,
  request: FastifyRequest,
): Promise<void> {
  const operationId = request.routeOptions.schema?.operationId;
  const needed = operationId === undefined ? undefined : INSTALLATION_OPERATIONS[operationId];
  if (needed === undefined) {
    throw new ForbiddenError('An integration installation’s token cannot call this operation');
  }
  if (needed !== 'none' && !principal.scopes.includes(needed)) {
    throw new ForbiddenError(`The integration does not declare the "${needed}" scope this operation needs`);
  }
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== 'string' || !REACHABLE_PARAMS.has(name)) throw notVisible('resource');
  }
  const { organizationId, integrationName, installationId, spaceId, siteId } = params as Record<
    string,
    string | undefined
  >;
  if (organizationId !== undefined && organizationId !== principal.organizationId) throw notVisible('organization');
  if (integrationName !== undefined && integrationName !== principal.integrationName) throw notVisible('integration');
  if (installationId !== undefined && installationId !== principal.installationId) throw notVisible('installation');
  if (spaceId !== undefined && !(await isSpaceOfInstallation(db, principal.installationId, spaceId))) {
    throw notVisible('space');
  }
  if (siteId !== undefined && !(await isSiteOfInstallation(db, principal.installationId, siteId))) {
    throw notVisible('site');
  }
}
