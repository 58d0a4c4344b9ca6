import type { Role } from '../db/types.js';
import type { Urls } from '../core/urls.js';
import { presentOrganization, type Membership } from '../orgs/present.js';
import type { OrganizationFields } from '../orgs/organization-queries.js';
import { presentSpace } from '../spaces/present.js';
import { presentSite } from '../sites/present.js';
import type { SiteSummary } from '../sites/queries.js';
import type { SiteInstallationFields, SpaceInstallationFields } from './content-installation-queries.js';
import type { InstallationFields } from './installation-queries.js';
import type { IntegrationFields } from './queries.js';
import type {
  ContentSecurityPolicy,
  Integration,
  IntegrationInstallation,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
} from './schemas.js';

/** Where an integration's images are served: a public route of the service, outside the API. */
export const assetUrl = (urls: Urls, name: string, file: string) => urls.service('integration-assets', name, file);

export interface IntegrationViewer {
  /** What the caller is to the owner organization. */
  owner: Membership;
  /** Whether the caller is an admin of some organization, where they could install the integration. */
  adminsAnOrganization: boolean;
}

export function presentIntegration(
  row: IntegrationFields,
  owner: OrganizationFields,
  viewer: IntegrationViewer,
  urls: Urls,
): Integration {
  const ownerAdmin = viewer.owner.isMember && viewer.owner.role === 'admin';
  const integration: Integration = {
    object: 'integration',
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    previewImages: row.preview_images.map((file) => assetUrl(urls, row.name, file)),
    target: row.target,
    // Verification is GitBook's review of marketplace integrations: none here.
    verified: false,
    visibility: row.visibility,
    scopes: row.scopes as Integration['scopes'],
    categories: row.categories as Integration['categories'],
    blocks: row.blocks as Integration['blocks'],
    contentSources: row.content_sources as Integration['contentSources'],
    configurations: row.configurations,
    externalLinks: row.external_links as Integration['externalLinks'],
    owner: presentOrganization(owner, viewer.owner, urls),
    urls: {
      location: urls.api('integrations', row.name),
      app: urls.app('integrations', row.name),
      assets: urls.service('integration-assets', row.name),
      publicEndpoint: urls.service('integrations', row.name),
      // No separate origin for rendered content: the same endpoint.
      publicContentEndpoint: urls.service('integrations', row.name),
    },
    permissions: {
      admin: ownerAdmin,
      // A private integration installs only in its own organization.
      install: row.visibility === 'private' ? ownerAdmin : viewer.adminsAnOrganization,
    },
  };
  if (row.summary !== null) integration.summary = row.summary;
  if (row.icon) integration.urls.icon = assetUrl(urls, row.name, row.icon);
  if (row.content_security_policy !== null) {
    integration.contentSecurityPolicy = row.content_security_policy as ContentSecurityPolicy;
  }
  return integration;
}

const installationLocation = (urls: Urls, integrationName: string, installationId: string) =>
  urls.api('integrations', integrationName, 'installations', installationId);

export function presentInstallation(
  row: InstallationFields,
  integrationName: string,
  urls: Urls,
): IntegrationInstallation {
  return {
    id: row.id,
    status: row.status,
    space_selection: (row.spaces_count ?? 0) > 0 ? 'selected' : 'all',
    site_selection: row.has_sites ? 'selected' : 'all',
    spaces: row.spaces_count ?? 0,
    configuration: row.configuration,
    externalIds: row.external_ids,
    target: { organization: row.organization_id },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    urls: {
      location: installationLocation(urls, integrationName, row.id),
      app: urls.app('o', row.organization_id, 'integrations', integrationName),
      publicEndpoint: urls.service('integrations', integrationName, 'installations', row.id),
      publicContentEndpoint: urls.service('integrations', integrationName, 'installations', row.id),
    },
  };
}

/**
 * A space installation; with `spaceRole`, the space itself as a caller with
 * that role sees it, else its id.
 */
export function presentSpaceInstallation(
  row: SpaceInstallationFields,
  integrationName: string,
  urls: Urls,
  spaceRole: Role | undefined,
): IntegrationSpaceInstallation {
  const location = installationLocation(urls, integrationName, row.installation_id);
  const publicEndpoint = urls.service('integrations', integrationName, 'installations', row.installation_id);
  return {
    integration: integrationName,
    installation: row.installation_id,
    status: 'active',
    configuration: row.configuration,
    externalIds: row.external_ids,
    urls: {
      location: `${location}/spaces/${encodeURIComponent(row.space_id)}`,
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    space: spaceRole ? presentSpace(row.space, spaceRole, urls) : row.space_id,
  };
}

/** A site installation; with `site`, the Site itself, else its id. */
export function presentSiteInstallation(
  row: SiteInstallationFields,
  integrationName: string,
  urls: Urls,
  site?: SiteSummary,
): IntegrationSiteInstallation {
  const location = installationLocation(urls, integrationName, row.installation_id);
  const publicEndpoint = urls.service('integrations', integrationName, 'installations', row.installation_id);
  return {
    integration: integrationName,
    installation: row.installation_id,
    status: 'active',
    configuration: row.configuration,
    externalIds: row.external_ids,
    urls: {
      location: `${location}/sites/${encodeURIComponent(row.site_id)}`,
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    // Read by the integration's publishers and installations, who hold no role on the site.
    site: site ? presentSite(site, urls, null) : row.site_id,
  };
}
