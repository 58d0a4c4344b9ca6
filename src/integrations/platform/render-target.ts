import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import { requireOrganizationAdmin } from '../../access/membership.js';
import { findSpaceAsMember } from '../../access/spaces.js';
import { findSiteAsAdmin } from '../../sites/access.js';
import type { Context } from '../../context.js';
import { findRenderInstallation, siteOrganization } from './render-queries.js';
import type { RenderContext } from './render-schemas.js';

/** The installation a UI renders for, and where: what the rendering event names. */
export interface RenderTarget {
  organizationId: string;
  installationId: string;
  spaceId?: string;
  siteId?: string;
}

const notInstalled = () => new NotFoundError('The integration is not installed where this UI renders');

/**
 * The installation a render's context names, if the caller may see the UI
 * there: a block in a document of a space they read (where the integration
 * is installed on the space), a space or site installation's configuration
 * (its admins), an organization installation's or a content source's
 * (the organization's admins).
 */
export async function renderTarget(
  context: Context,
  callerId: string,
  integrationId: string,
  where: RenderContext,
): Promise<RenderTarget> {
  let target: Omit<RenderTarget, 'installationId'> & { on: 'organization' | 'space' | 'site' };
  if (where.type === 'document' || where.type === 'configuration_space') {
    const { space, role } = await findSpaceAsMember(context, where.spaceId, callerId);
    if (where.type === 'configuration_space' && role !== 'admin') {
      throw new ForbiddenError('Configuring an integration on a space needs the admin role on the space');
    }
    target = { organizationId: space.organization_id, spaceId: space.id, on: 'space' };
  } else if (where.type === 'configuration_site') {
    const organizationId = await siteOrganization(context.db, where.siteId);
    if (organizationId === undefined) throw new NotFoundError('No site with this id is visible to you');
    await findSiteAsAdmin(context, organizationId, where.siteId, callerId, 'Configuring an integration on a site');
    target = { organizationId, siteId: where.siteId, on: 'site' };
  } else {
    await requireOrganizationAdmin(context.db, where.organizationId, callerId, 'Configuring an integration');
    target = { organizationId: where.organizationId, on: 'organization' };
  }
  const installation = await findRenderInstallation(context.db, integrationId, target);
  if (!installation) throw notInstalled();
  if (installation.status !== 'active') {
    throw new ConflictError(`The installation is ${installation.status}: its UI does not render`);
  }
  const { on: _on, ...named } = target;
  return { ...named, installationId: installation.id };
}
