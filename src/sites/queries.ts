import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { keysetAfter, pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { precompiled } from '../db/precompiled.js';
import type { Db } from '../db/database.js';
import type { Database, SiteType, SitesTable } from '../db/types.js';
import { membershipColumn, type CarriedMembership } from '../access/membership.js';
import { grantRolesOnSite } from '../access/sites.js';
import type { Role } from '../access/roles.js';

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
export const SITE_FIELDS = [
  'id',
  'organization_id',
  'type',
  'title',
  'visibility',
  'published',
  'basename',
  'hostname',
  'hostname_status',
  'proxy',
  'agents_context',
  'adaptive_enabled',
  'adaptive_schema',
  'adaptive_schema_updated_at',
  'customization',
  'auth_backend',
  'auth_fallback_url',
  'auth_logout_url',
  'auth_private_key_encrypted',
  'default_section_id',
  'default_site_space_id',
  'site_spaces_count',
  'created_at',
  'updated_at',
] as const;
export type SiteRow = Pick<Selectable<SitesTable>, (typeof SITE_FIELDS)[number]>;

export async function findSite(db: Db, organizationId: string, siteId: string): Promise<SiteRow | undefined> {
  return db
    .selectFrom('sites')
    .select(SITE_FIELDS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .executeTakeFirst();
}

/**
 * The site with `callerId`'s membership of its organization (membershipColumn)
 * and the roles given to them or their teams on it, in one statement compiled once.
 */
const siteWithCaller = precompiled((db, organizationId: string, siteId: string, callerId: string) =>
  db
    .selectFrom('sites')
    .select(SITE_FIELDS)
    .select(membershipColumn(organizationId, callerId).as('caller'))
    .select(grantRolesOnSite(sql.ref<string>('sites.id'), organizationId, callerId).as('grant_roles'))
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId),
);

export async function findSiteFor(
  db: Db,
  organizationId: string,
  siteId: string,
  callerId: string,
): Promise<(SiteRow & { caller: CarriedMembership; grant_roles: Role[] | null }) | undefined> {
  return (await siteWithCaller(db, organizationId, siteId, callerId))[0];
}

export async function lockSiteRow(db: Db, organizationId: string, siteId: string): Promise<SiteRow | undefined> {
  return db
    .selectFrom('sites')
    .select(SITE_FIELDS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .forUpdate()
    .executeTakeFirst();
}

/** What a Site response is made of: a list reads only these (of the customization, only its favicon). */
export const SITE_SUMMARY_FIELDS = [
  'id',
  'organization_id',
  'type',
  'title',
  'visibility',
  'published',
  'basename',
  'hostname',
  'hostname_status',
  'proxy',
  'agents_context',
  'adaptive_enabled',
  'site_spaces_count',
  'created_at',
] as const;
export type SiteSummary = Pick<SiteRow, (typeof SITE_SUMMARY_FIELDS)[number] | 'customization'>;

export type SiteWithCount = SiteSummary & { [TOTAL_COUNT]: string };

export interface SiteFilters {
  space?: string | undefined;
  /** An ILIKE pattern. */
  title?: string | undefined;
  published?: boolean | undefined;
  types?: readonly SiteType[] | undefined;
}

function sitesOf(db: Kysely<Database>, organizationId: string, filters: SiteFilters) {
  let query = db.selectFrom('sites as st').where('st.organization_id', '=', organizationId);
  if (filters.published !== undefined) query = query.where('st.published', '=', filters.published);
  if (filters.title !== undefined) query = query.where(sql<string>`lower(st.title)`, 'like', filters.title);
  if (filters.types !== undefined && filters.types.length > 0) query = query.where('st.type', 'in', filters.types);
  if (filters.space !== undefined) {
    const space = filters.space;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('site_spaces as f')
          .select('f.id')
          .whereRef('f.site_id', '=', 'st.id')
          .where('f.organization_id', '=', organizationId)
          .where('f.space_id', '=', space),
      ),
    );
  }
  return query;
}

/** The organization's sites matching the filters, with their site-space counts and the count of all matches. */
function siteList(db: Kysely<Database>, organizationId: string, filters: SiteFilters) {
  return sitesOf(db, organizationId, filters)
    .select(SITE_SUMMARY_FIELDS.map((field) => `st.${field}` as const))
    .select(
      sql<Record<string, unknown> | null>`case when st.customization is null then null
        else jsonb_build_object('favicon', st.customization->'favicon') end`.as('customization'),
    )
    .select(() =>
      sitesOf(db, organizationId, filters)
        .select(sql<string>`count(*)`.as('n'))
        .as(TOTAL_COUNT),
    );
}

const KEYSET = { createdAt: 'st.created_at', id: 'st.id' };
/** The list without filters, the one most asked for, compiled once. */
const allSites = pageQuery(KEYSET, (db, organizationId: string) => siteList(db, organizationId, {}));
export const listAllSites = (db: Db, page: PageRequest, organizationId: string) =>
  allSites(db, page, organizationId) as unknown as Promise<SiteWithCount[]>;

/** Whether a list of sites is filtered at all. */
export const filtersSites = (filters: SiteFilters) => Object.values(filters).some((value) => value !== undefined);

/** A page of the organization's sites with their site-space counts, filtered (listAllSites reads the unfiltered list). */
export async function listSites(
  db: Db,
  page: PageRequest,
  organizationId: string,
  filters: SiteFilters,
): Promise<SiteWithCount[]> {
  let query = siteList(db, organizationId, filters);
  const after = keysetAfter(page, 'st.created_at', 'st.id');
  if (after) query = query.where(after);
  return (await query
    .orderBy('st.created_at', page.order)
    .orderBy('st.id', page.order)
    .limit(page.limit + 1)
    .execute()) as unknown as SiteWithCount[];
}

export async function countSites(db: Db, organizationId: string, filters: SiteFilters): Promise<number> {
  const { n } = await sitesOf(db, organizationId, filters)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertSite(db: Db, site: Insertable<SitesTable>): Promise<SiteRow> {
  return db.insertInto('sites').values(site).returning(SITE_FIELDS).executeTakeFirstOrThrow();
}

export async function updateSite(
  db: Db,
  organizationId: string,
  siteId: string,
  changes: Updateable<SitesTable>,
): Promise<SiteRow> {
  return db
    .updateTable('sites')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .returning(SITE_FIELDS)
    .executeTakeFirstOrThrow();
}

export async function deleteSite(db: Db, organizationId: string, siteId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sites')
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Every site read at a proven custom hostname, by that hostname: what the
 * reader's Host routing knows. A claim not yet proven routes nothing.
 */
export async function siteHostnames(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('sites')
    .select(['id', 'hostname'])
    .where('hostname_verified_at', 'is not', null)
    .execute();
  return new Map(rows.flatMap((row) => (row.hostname === null ? [] : [[row.hostname, row.id] as const])));
}
