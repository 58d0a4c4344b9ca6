import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import { keysetAfter, TOTAL_COUNT, type PageRequest } from '../../core/pagination.js';
import { SITE_SUMMARY_FIELDS, type SiteSummary } from '../../sites/queries.js';
import {
  countInstallations,
  pageOfSiteInstallations,
  pageOfSpaceInstallations,
  type SiteInstallationFields,
  type SpaceInstallationFields,
} from '../content-installation-queries.js';
import { filterIntegrations, type IntegrationFields, type IntegrationFilters } from '../queries.js';

/**
 * Where integrations are installed, read across installations: an
 * integration's spaces and sites, an organization's integrations and their
 * statuses, and the integrations enabled on a space or a site (those with an
 * installation on it).
 */

type Counted<T> = T & { [TOTAL_COUNT]: string | null };

export interface ContentFilters {
  /** Only this installation's (an installation's own token). */
  installationId?: string | undefined;
  externalId?: string | undefined;
}

/** The installations of an integration, for a `where … in` of its space and site installations. */
function installationsOf(db: Kysely<Database>, integrationId: string) {
  return db.selectFrom('integration_installations').select('id').where('integration_id', '=', integrationId);
}

function integrationSpaces(db: Kysely<Database>, integrationId: string, filters: ContentFilters) {
  let query = db
    .selectFrom('integration_space_installations as ci')
    .innerJoin('spaces as s', (join) =>
      join.onRef('s.organization_id', '=', 'ci.organization_id').onRef('s.id', '=', 'ci.space_id'),
    )
    .where('ci.installation_id', 'in', installationsOf(db, integrationId))
    .where('s.deleted_at', 'is', null);
  if (filters.installationId !== undefined) query = query.where('ci.installation_id', '=', filters.installationId);
  if (filters.externalId !== undefined) {
    query = query.where(sql<boolean>`ci.external_ids @> array[${filters.externalId}]::text[]`);
  }
  return query;
}

/** A page of an integration's space installations: a space has at most one of an integration, so its id keys the page. */
export function listIntegrationSpaces(
  db: Db,
  page: PageRequest,
  integrationId: string,
  filters: ContentFilters,
): Promise<Array<Counted<SpaceInstallationFields>>> {
  return pageOfSpaceInstallations(() => integrationSpaces(db, integrationId, filters), page);
}

export function countIntegrationSpaces(db: Db, integrationId: string, filters: ContentFilters): Promise<number> {
  return countInstallations(integrationSpaces(db, integrationId, filters));
}

function integrationSites(db: Kysely<Database>, integrationId: string, filters: ContentFilters) {
  let query = db
    .selectFrom('integration_site_installations as ci')
    .innerJoin('sites as st', 'st.id', 'ci.site_id')
    .where('ci.installation_id', 'in', installationsOf(db, integrationId));
  if (filters.installationId !== undefined) query = query.where('ci.installation_id', '=', filters.installationId);
  if (filters.externalId !== undefined) {
    query = query.where(sql<boolean>`ci.external_ids @> array[${filters.externalId}]::text[]`);
  }
  return query;
}

export function listIntegrationSites(
  db: Db,
  page: PageRequest,
  integrationId: string,
  filters: ContentFilters,
): Promise<Array<Counted<SiteInstallationFields>>> {
  return pageOfSiteInstallations(() => integrationSites(db, integrationId, filters), page);
}

export function countIntegrationSites(db: Db, integrationId: string, filters: ContentFilters): Promise<number> {
  return countInstallations(integrationSites(db, integrationId, filters));
}

/** The sites of a page of site installations, for `extended`, in one query. */
export async function findSites(db: Db, siteIds: readonly string[]): Promise<SiteSummary[]> {
  if (siteIds.length === 0) return [];
  return db
    .selectFrom('sites')
    .select([...SITE_SUMMARY_FIELDS, 'customization'])
    .where('id', 'in', siteIds)
    .execute();
}

/** Which integrations a list holds: those `organizationId` may use, or those installed on a space or a site. */
export type IntegrationScopeOfList =
  | { kind: 'organization'; organizationId: string }
  | { kind: 'space'; organizationId: string; spaceId: string }
  | { kind: 'site'; organizationId: string; siteId: string };

function integrationsOf(db: Kysely<Database>, list: IntegrationScopeOfList, filters: IntegrationFilters) {
  let query = db.selectFrom('integrations as i');
  if (list.kind === 'organization') {
    // Public ones, and the organization's own.
    query = query.where((eb) =>
      eb.or([eb('i.visibility', '=', 'public'), eb('i.organization_id', '=', list.organizationId)]),
    );
  } else if (list.kind === 'space') {
    query = query.where('i.id', 'in', (eb) =>
      eb
        .selectFrom('integration_space_installations as ci')
        .innerJoin('integration_installations as ii', 'ii.id', 'ci.installation_id')
        .select('ii.integration_id')
        .where('ci.organization_id', '=', list.organizationId)
        .where('ci.space_id', '=', list.spaceId),
    );
  } else {
    query = query.where('i.id', 'in', (eb) =>
      eb
        .selectFrom('integration_site_installations as ci')
        .innerJoin('integration_installations as ii', 'ii.id', 'ci.installation_id')
        .select('ii.integration_id')
        .where('ci.organization_id', '=', list.organizationId)
        .where('ci.site_id', '=', list.siteId),
    );
  }
  return filterIntegrations(query, filters);
}

/** A page of integrations of the list, newest first by default, each row with the count of all that match. */
export async function listIntegrationsOf(
  db: Db,
  page: PageRequest,
  list: IntegrationScopeOfList,
  filters: IntegrationFilters,
): Promise<Array<Counted<IntegrationFields>>> {
  let query = integrationsOf(db, list, filters)
    .select(INTEGRATION_LIST_COLUMNS)
    .select(() =>
      integrationsOf(db, list, filters)
        .select(sql<string>`count(*)`.as('n'))
        .as(TOTAL_COUNT),
    );
  const after = keysetAfter(page, 'i.created_at', 'i.id');
  if (after) query = query.where(after);
  return query
    .orderBy('i.created_at', page.order)
    .orderBy('i.id', page.order)
    .limit(page.limit + 1)
    .execute();
}

export async function countIntegrationsOf(
  db: Db,
  list: IntegrationScopeOfList,
  filters: IntegrationFilters,
): Promise<number> {
  const { n } = await integrationsOf(db, list, filters)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The columns of an Integration response, as queries.ts reads them. */
const INTEGRATION_LIST_COLUMNS = [
  'i.id',
  'i.organization_id',
  'i.name',
  'i.version',
  'i.runtime',
  'i.title',
  'i.description',
  'i.summary',
  'i.visibility',
  'i.target',
  'i.scopes',
  'i.categories',
  'i.blocks',
  'i.content_sources',
  'i.configurations',
  'i.external_links',
  'i.content_security_policy',
  'i.icon',
  'i.preview_images',
  'i.created_at',
  'i.updated_at',
] as const;

/** Most integrations whose blocks a space offers: a bound on the answer, which the spec does not page. */
export const MAX_SPACE_BLOCK_INTEGRATIONS = 1000;

/** The integrations installed on a space that have blocks, by name. */
export async function spaceBlockIntegrations(
  db: Db,
  organizationId: string,
  spaceId: string,
): Promise<Array<{ name: string; blocks: unknown[] }>> {
  return integrationsOf(db, { kind: 'space', organizationId, spaceId }, { blocks: true })
    .select(['i.name', 'i.blocks'])
    .orderBy('i.name')
    .limit(MAX_SPACE_BLOCK_INTEGRATIONS)
    .execute();
}

/** The integrations installed on a site that inject a script, with each installation's id. */
export async function siteScriptIntegrations(
  db: Db,
  organizationId: string,
  siteId: string,
): Promise<Array<{ name: string; installation_id: string; scopes: string[]; content_security_policy: unknown }>> {
  return db
    .selectFrom('integration_site_installations as ci')
    .innerJoin('integration_installations as ii', 'ii.id', 'ci.installation_id')
    .innerJoin('integrations as i', 'i.id', 'ii.integration_id')
    .select(['i.name', 'ci.installation_id', 'i.scopes', 'i.content_security_policy'])
    .where('ci.organization_id', '=', organizationId)
    .where('ci.site_id', '=', siteId)
    .where('ii.status', '=', 'active')
    .where(sql<boolean>`i.scopes @> array['site:script:inject']::text[]`)
    .orderBy('i.name')
    .limit(MAX_SPACE_BLOCK_INTEGRATIONS)
    .execute();
}

/** Integrations by their ids, for a page of installations. */
export async function findIntegrationsByIds(db: Db, ids: readonly string[]): Promise<IntegrationFields[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('integrations as i').select(INTEGRATION_LIST_COLUMNS).where('i.id', 'in', ids).execute();
}
