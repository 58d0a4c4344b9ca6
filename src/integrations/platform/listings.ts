import { paginate, type Page } from '../../core/pagination.js';
import type { Caller } from '../../access/auth.js';
import { requireFullMembership } from '../../access/membership.js';
import { findSpaceAsMember } from '../../access/spaces.js';
import { findSiteAsMember } from '../../sites/access.js';
import type { Context } from '../../context.js';
import { findIntegrationToManage } from '../access.js';
import { integrationFilters, integrationListName, presentIntegrations } from '../actions.js';
import { presentSiteInstallation, presentSpaceInstallation } from '../present.js';
import type {
  Integration,
  IntegrationBlock,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  ListIntegrationsQuery,
} from '../schemas.js';
import {
  countIntegrationSites,
  countIntegrationSpaces,
  countIntegrationsOf,
  findSites,
  listIntegrationSites,
  listIntegrationSpaces,
  listIntegrationsOf,
  siteScriptIntegrations,
  spaceBlockIntegrations,
  type ContentFilters,
  type IntegrationScopeOfList,
} from './listing-queries.js';
import type {
  ListContentIntegrationsQuery,
  ListIntegrationContentQuery,
  SiteIntegrationScript,
  SpaceIntegrationBlocks,
} from './schemas.js';

/**
 * Where an integration is installed, for its publishers' admins (every
 * installation) and for an installation's own token (its own only).
 */
async function integrationForContentList(context: Context, caller: Caller, integrationName: string) {
  if (caller.installation) {
    // The auth checked that the name is the installation's own integration.
    const { integrationId, installationId } = caller.installation;
    return { integrationId, filters: { installationId } };
  }
  const { integration } = await findIntegrationToManage(
    context,
    caller.userId,
    integrationName,
    'Listing where an integration is installed',
  );
  return { integrationId: integration.id, filters: {} as ContentFilters };
}

export async function listSpacesOfIntegration(
  context: Context,
  caller: Caller,
  integrationName: string,
  query: ListIntegrationContentQuery,
): Promise<Page<IntegrationSpaceInstallation>> {
  const { integrationId, filters } = await integrationForContentList(context, caller, integrationName);
  const scoped = { ...filters, externalId: query.externalId };
  const page = context.cursors.request(
    `integration-spaces:${integrationId}:${scoped.installationId ?? '*'}:${query.externalId ?? ''}`,
    query,
  );
  return paginate(context.cursors, page, {
    rows: () => listIntegrationSpaces(context.db, page, integrationId, scoped),
    count: () => countIntegrationSpaces(context.db, integrationId, scoped),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.space_id }),
    // The integration acts on the space as an installation reads it: the published side.
    toItem: (row) => presentSpaceInstallation(row, integrationName, context.urls, query.extended ? 'read' : undefined),
  });
}

export async function listSitesOfIntegration(
  context: Context,
  caller: Caller,
  integrationName: string,
  query: ListIntegrationContentQuery,
): Promise<Page<IntegrationSiteInstallation>> {
  const { integrationId, filters } = await integrationForContentList(context, caller, integrationName);
  const scoped = { ...filters, externalId: query.externalId };
  const page = context.cursors.request(
    `integration-sites:${integrationId}:${scoped.installationId ?? '*'}:${query.externalId ?? ''}`,
    query,
  );
  const listed = await paginate(context.cursors, page, {
    rows: () => listIntegrationSites(context.db, page, integrationId, scoped),
    count: () => countIntegrationSites(context.db, integrationId, scoped),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.site_id }),
    toItem: (row) => row,
  });
  const sites = query.extended
    ? await findSites(
        context.db,
        listed.items.map((row) => row.site_id),
      )
    : [];
  const byId = new Map(sites.map((site) => [site.id, site]));
  return {
    ...listed,
    items: listed.items.map((row) =>
      presentSiteInstallation(row, integrationName, context.urls, byId.get(row.site_id)),
    ),
  };
}

/** A page of integrations of a list, presented for the caller. */
async function integrationPage(
  context: Context,
  callerId: string,
  list: IntegrationScopeOfList,
  listName: string,
  query: ListIntegrationsQuery,
): Promise<Page<Integration>> {
  const filters = integrationFilters(query);
  const page = context.cursors.request(listName, query);
  const rows = await paginate(context.cursors, page, {
    rows: () => listIntegrationsOf(context.db, page, list, filters),
    count: () => countIntegrationsOf(context.db, list, filters),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
  return { ...rows, items: await presentIntegrations(context, callerId, rows.items) };
}

/**
 * The integrations an organization may use: every public one, and its own.
 * Its members with a role read it (guests 403, others 404); an installation
 * of the organization too.
 */
export async function listOrganizationIntegrations(
  context: Context,
  caller: Caller,
  organizationId: string,
  query: ListIntegrationsQuery,
): Promise<Page<Integration>> {
  if (!caller.installation) {
    await requireFullMembership(context.db, organizationId, caller.userId, 'list the organization’s integrations');
  }
  const list = `organization-integrations:${organizationId}:${integrationListName(query)}`;
  return integrationPage(context, caller.userId, { kind: 'organization', organizationId }, list, query);
}

const searchOf = (query: ListContentIntegrationsQuery): ListIntegrationsQuery =>
  query.search === undefined ? {} : { search: query.search };

/** The integrations installed on a space, for its members who read it. */
export async function listSpaceIntegrations(
  context: Context,
  callerId: string,
  spaceId: string,
  query: ListContentIntegrationsQuery,
): Promise<Page<Integration>> {
  const { space } = await findSpaceAsMember(context, spaceId, callerId);
  const list = { kind: 'space' as const, organizationId: space.organization_id, spaceId };
  const name = `space-integrations:${spaceId}:${JSON.stringify(query.search ?? null)}`;
  return integrationPage(context, callerId, list, name, { ...searchOf(query), ...pageOf(query) });
}

/** The integrations installed on a site, for the members of its organization. */
export async function listSiteIntegrations(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  query: ListContentIntegrationsQuery,
): Promise<Page<Integration>> {
  await findSiteAsMember(context, organizationId, siteId, callerId);
  const list = { kind: 'site' as const, organizationId, siteId };
  const name = `site-integrations:${siteId}:${JSON.stringify(query.search ?? null)}`;
  return integrationPage(context, callerId, list, name, { ...searchOf(query), ...pageOf(query) });
}

function pageOf(query: ListContentIntegrationsQuery): Pick<ListIntegrationsQuery, 'page' | 'limit'> {
  return {
    ...(query.page === undefined ? {} : { page: query.page }),
    ...(query.limit === undefined ? {} : { limit: query.limit }),
  };
}

/** The blocks the integrations installed on a space offer there, by integration. */
export async function listSpaceIntegrationBlocks(
  context: Context,
  callerId: string,
  spaceId: string,
): Promise<SpaceIntegrationBlocks> {
  const { space } = await findSpaceAsMember(context, spaceId, callerId);
  const rows = await spaceBlockIntegrations(context.db, space.organization_id, spaceId);
  return rows.map((row) => ({ name: row.name, blocks: row.blocks as IntegrationBlock[] }));
}

/** A content security policy as one header value: a string as it is, an object's directives joined. */
function policyText(policy: unknown): string | undefined {
  if (typeof policy === 'string') return policy;
  if (policy === null || typeof policy !== 'object') return undefined;
  return Object.entries(policy as Record<string, string>)
    .map(([directive, value]) => `${directive} ${value}`)
    .join('; ');
}

/**
 * The scripts the integrations installed on a site inject into its published
 * pages: those that declare `site:script:inject`, each at its installation's
 * public endpoint, with whether it may set cookies (`site:script:cookies`).
 */
export async function listSiteIntegrationScripts(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
): Promise<SiteIntegrationScript[]> {
  await findSiteAsMember(context, organizationId, siteId, callerId);
  const rows = await siteScriptIntegrations(context.db, organizationId, siteId);
  return rows.map((row) => {
    const script: SiteIntegrationScript = {
      script: context.urls.service(
        'integrations',
        row.name,
        'installations',
        row.installation_id,
        'sites',
        siteId,
        'script.js',
      ),
      cookies: row.scopes.includes('site:script:cookies'),
    };
    const policy = policyText(row.content_security_policy);
    if (policy !== undefined) script.contentSecurityPolicy = policy;
    return script;
  });
}
