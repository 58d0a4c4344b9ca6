import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { keysetAfter, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { SPACE_COLUMNS, type SpaceFields } from '../access/space-queries.js';

/**
 * An installation's spaces and sites. A space installation shows only while
 * its space is live and still in the installation's organization; deleting
 * the space or the site removes it for good (ON DELETE CASCADE).
 */

export interface ContentInstallationFields {
  installation_id: string;
  organization_id: string;
  configuration: Record<string, unknown>;
  external_ids: string[];
  created_at: Date;
  updated_at: Date;
}
export type SpaceInstallationFields = ContentInstallationFields & { space_id: string; space: SpaceFields };
export type SiteInstallationFields = ContentInstallationFields & { site_id: string };

export const CONTENT_COLUMNS = [
  'ci.installation_id',
  'ci.organization_id',
  'ci.configuration',
  'ci.external_ids',
  'ci.created_at',
  'ci.updated_at',
] as const;

/** A space row's columns, prefixed, so that they sit beside the installation's. */
export const SPACE_SELECTION = SPACE_COLUMNS.map((column) => `${column} as space_${column.slice(2)}` as const);

function spaceInstallations(db: Db, installationId: string, organizationId: string) {
  return db
    .selectFrom('integration_space_installations as ci')
    .innerJoin('spaces as s', 's.id', 'ci.space_id')
    .where('ci.installation_id', '=', installationId)
    .where('s.organization_id', '=', organizationId)
    .where('s.deleted_at', 'is', null);
}

export type SpaceRow = Omit<SpaceInstallationFields, 'space'> & Record<string, unknown>;

export function withSpace(row: SpaceRow): SpaceInstallationFields {
  const space = Object.fromEntries(
    SPACE_COLUMNS.map((column) => [column.slice(2), row[`space_${column.slice(2)}`]]),
  ) as unknown as SpaceFields;
  return {
    installation_id: row.installation_id,
    organization_id: row.organization_id,
    configuration: row.configuration,
    external_ids: row.external_ids,
    created_at: row.created_at,
    updated_at: row.updated_at,
    space_id: row.space_id,
    space,
  };
}

/** A query of space installations (`ci`) with their spaces (`s`): an installation's, or an integration's. */
export type SpaceInstallationQuery = ReturnType<typeof spaceInstallations>;

/** A page of the space installations `query` makes (each call a new one), with the total count. */
export async function pageOfSpaceInstallations(
  query: () => SpaceInstallationQuery,
  page: PageRequest,
): Promise<Array<SpaceInstallationFields & { [TOTAL_COUNT]: string | null }>> {
  let rows = query()
    .select([...CONTENT_COLUMNS, 'ci.space_id', ...SPACE_SELECTION])
    .select(() =>
      query()
        .select(sql<string>`count(*)`.as('n'))
        .as(TOTAL_COUNT),
    );
  const after = keysetAfter(page, 'ci.created_at', 'ci.space_id');
  if (after) rows = rows.where(after);
  const found = await rows
    .orderBy('ci.created_at', page.order)
    .orderBy('ci.space_id', page.order)
    .limit(page.limit + 1)
    .execute();
  return found.map((row) => ({ ...withSpace(row as SpaceRow), [TOTAL_COUNT]: row[TOTAL_COUNT] }));
}

/** How many installations a query of space or site installations holds. */
export async function countInstallations(query: SpaceInstallationQuery | SiteInstallationQuery): Promise<number> {
  const { n } = await (query as SpaceInstallationQuery)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export function listSpaceInstallations(db: Db, page: PageRequest, installationId: string, organizationId: string) {
  return pageOfSpaceInstallations(() => spaceInstallations(db, installationId, organizationId), page);
}

export function countSpaceInstallations(db: Db, installationId: string, organizationId: string): Promise<number> {
  return countInstallations(spaceInstallations(db, installationId, organizationId));
}

export async function findSpaceInstallation(
  db: Db,
  installationId: string,
  organizationId: string,
  spaceId: string,
): Promise<SpaceInstallationFields | undefined> {
  const row = await spaceInstallations(db, installationId, organizationId)
    .select([...CONTENT_COLUMNS, 'ci.space_id', ...SPACE_SELECTION])
    .where('ci.space_id', '=', spaceId)
    .executeTakeFirst();
  return row && withSpace(row);
}

export interface ContentInstallationKey {
  installationId: string;
  organizationId: string;
  at: Date;
}

/** Installs on the space; false when it is installed there already. */
export async function insertSpaceInstallation(db: Db, key: ContentInstallationKey, spaceId: string): Promise<boolean> {
  const row = await db
    .insertInto('integration_space_installations')
    .values({
      installation_id: key.installationId,
      organization_id: key.organizationId,
      space_id: spaceId,
      created_at: key.at,
      updated_at: key.at,
    })
    .onConflict((oc) => oc.columns(['installation_id', 'space_id']).doNothing())
    .returning('space_id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface ContentInstallationChanges {
  configuration?: string;
  external_ids?: string[];
  updated_at: Date;
}

export async function updateSpaceInstallation(
  db: Db,
  installationId: string,
  spaceId: string,
  changes: ContentInstallationChanges,
): Promise<void> {
  await db
    .updateTable('integration_space_installations')
    .set(changes)
    .where('installation_id', '=', installationId)
    .where('space_id', '=', spaceId)
    .execute();
}

export async function deleteSpaceInstallation(db: Db, installationId: string, spaceId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('integration_space_installations')
    .where('installation_id', '=', installationId)
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

// ---- Sites ----

function siteInstallations(db: Db, installationId: string, organizationId: string) {
  return db
    .selectFrom('integration_site_installations as ci')
    .innerJoin('sites as st', 'st.id', 'ci.site_id')
    .where('ci.installation_id', '=', installationId)
    .where('st.organization_id', '=', organizationId);
}

/** A query of site installations (`ci`) with their sites (`st`): an installation's, or an integration's. */
export type SiteInstallationQuery = ReturnType<typeof siteInstallations>;

/** A page of the site installations `query` makes (each call a new one), with the total count. */
export function pageOfSiteInstallations(
  query: () => SiteInstallationQuery,
  page: PageRequest,
): Promise<Array<SiteInstallationFields & { [TOTAL_COUNT]: string | null }>> {
  let rows = query()
    .select([...CONTENT_COLUMNS, 'ci.site_id'])
    .select(() =>
      query()
        .select(sql<string>`count(*)`.as('n'))
        .as(TOTAL_COUNT),
    );
  const after = keysetAfter(page, 'ci.created_at', 'ci.site_id');
  if (after) rows = rows.where(after);
  return rows
    .orderBy('ci.created_at', page.order)
    .orderBy('ci.site_id', page.order)
    .limit(page.limit + 1)
    .execute();
}

export function listSiteInstallations(db: Db, page: PageRequest, installationId: string, organizationId: string) {
  return pageOfSiteInstallations(() => siteInstallations(db, installationId, organizationId), page);
}

export function countSiteInstallations(db: Db, installationId: string, organizationId: string): Promise<number> {
  return countInstallations(siteInstallations(db, installationId, organizationId));
}

export async function findSiteInstallation(
  db: Db,
  installationId: string,
  organizationId: string,
  siteId: string,
): Promise<SiteInstallationFields | undefined> {
  return siteInstallations(db, installationId, organizationId)
    .select([...CONTENT_COLUMNS, 'ci.site_id'])
    .where('ci.site_id', '=', siteId)
    .executeTakeFirst();
}

/** Whether the organization has this site: a site is installed on within its own organization only. */
export async function siteExists(db: Db, organizationId: string, siteId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sites')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Installs on the site; false when it is installed there already. */
export async function insertSiteInstallation(db: Db, key: ContentInstallationKey, siteId: string): Promise<boolean> {
  const row = await db
    .insertInto('integration_site_installations')
    .values({
      installation_id: key.installationId,
      organization_id: key.organizationId,
      site_id: siteId,
      created_at: key.at,
      updated_at: key.at,
    })
    .onConflict((oc) => oc.columns(['installation_id', 'site_id']).doNothing())
    .returning('site_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateSiteInstallation(
  db: Db,
  installationId: string,
  siteId: string,
  changes: ContentInstallationChanges,
): Promise<void> {
  await db
    .updateTable('integration_site_installations')
    .set(changes)
    .where('installation_id', '=', installationId)
    .where('site_id', '=', siteId)
    .execute();
}

export async function deleteSiteInstallation(db: Db, installationId: string, siteId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('integration_site_installations')
    .where('installation_id', '=', installationId)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
