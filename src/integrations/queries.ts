import {
  sql,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
} from 'kysely';
import type { Db } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { Database, IntegrationsTable, Role } from '../db/types.js';
import { keysetAfter, pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { ORGANIZATION_COLUMNS, type OrganizationFields } from '../orgs/organization-queries.js';

/** The columns an Integration response is made from: all but the script, which no read returns. */
const INTEGRATION_FIELDS = [
  'id',
  'organization_id',
  'name',
  'version',
  'runtime',
  'title',
  'description',
  'summary',
  'visibility',
  'target',
  'scopes',
  'categories',
  'blocks',
  'content_sources',
  'configurations',
  'external_links',
  'content_security_policy',
  'icon',
  'preview_images',
  'created_at',
  'updated_at',
] as const;
const INTEGRATION_COLUMNS = INTEGRATION_FIELDS.map((field) => `i.${field}` as const);
export type IntegrationFields = Pick<Selectable<IntegrationsTable>, (typeof INTEGRATION_FIELDS)[number]>;

/** An integration with what the caller is to the organization that owns it. */
export interface IntegrationWithCaller extends IntegrationFields {
  caller_role: Role | null;
  caller_is_member: boolean;
}

const integrationByName = precompiled((db, name: string, userId: string) =>
  db
    .selectFrom('integrations as i')
    .leftJoin('organization_members as m', (join) =>
      join
        .onRef('m.organization_id', '=', 'i.organization_id')
        .on('m.user_id', '=', userId)
        .on('m.disabled', '=', false),
    )
    .select(INTEGRATION_COLUMNS)
    .select(['m.role as caller_role', sql<boolean>`m.user_id is not null`.as('caller_is_member')])
    .where('i.name', '=', name),
);

export async function findIntegrationByName(
  db: Db,
  name: string,
  userId: string,
): Promise<IntegrationWithCaller | undefined> {
  return (await integrationByName(db, name, userId))[0];
}

/** Whether the installation is one of the integration's. */
export async function isInstallationOf(db: Db, installationId: string, integrationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('integration_installations')
    .select('id')
    .where('id', '=', installationId)
    .where('integration_id', '=', integrationId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface IntegrationFilters {
  /** An ILIKE pattern over the lower-cased name and title. */
  search?: string | undefined;
  category?: string | undefined;
  /** Stored block hosts, any of which matches (the domain and the wildcards over it). */
  blockDomains?: string[] | undefined;
  blocks?: boolean | undefined;
  contentSources?: boolean | undefined;
  owner?: string | undefined;
  scope?: string | undefined;
  target?: string | undefined;
}

/** The organizations where `userId` is an active member with a role (SQL, a subquery): guests have none. */
function organizationsWithRole(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('organization_members as own')
    .select('own.organization_id')
    .where('own.user_id', '=', userId)
    .where('own.disabled', '=', false)
    .where('own.role', 'is not', null);
}

/**
 * The integrations the caller may find in the list: public ones, and the
 * unlisted and private ones of the organizations where they are a member
 * with a role (guests see only public integrations).
 */
function listedFor(db: Kysely<Database>, userId: string, filters: IntegrationFilters) {
  return filterIntegrations(
    db
      .selectFrom('integrations as i')
      .where((eb) =>
        eb.or([eb('i.visibility', '=', 'public'), eb('i.organization_id', 'in', organizationsWithRole(db, userId))]),
      ),
    filters,
  );
}

/** A query of the integrations table as `i`. */
export type IntegrationQuery<O> = SelectQueryBuilder<Database & { i: IntegrationsTable }, 'i', O>;

/** A query of integrations (`i`) narrowed by the list filters, each in the form its index serves. */
export function filterIntegrations<O>(query: IntegrationQuery<O>, filters: IntegrationFilters): IntegrationQuery<O> {
  if (filters.search !== undefined) {
    const pattern = filters.search;
    query = query.where((eb) =>
      eb.or([eb(sql<string>`lower(i.name)`, 'like', pattern), eb(sql<string>`lower(i.title)`, 'like', pattern)]),
    );
  }
  if (filters.category !== undefined)
    query = query.where(sql<boolean>`i.categories @> array[${filters.category}]::text[]`);
  if (filters.scope !== undefined) query = query.where(sql<boolean>`i.scopes @> array[${filters.scope}]::text[]`);
  if (filters.blockDomains !== undefined) {
    query = query.where(sql<boolean>`i.block_domains && ${filters.blockDomains}::text[]`);
  }
  if (filters.blocks !== undefined) query = query.where('i.has_blocks', '=', filters.blocks);
  if (filters.contentSources !== undefined) query = query.where('i.has_content_sources', '=', filters.contentSources);
  if (filters.owner !== undefined) query = query.where('i.organization_id', '=', filters.owner);
  if (filters.target !== undefined) query = query.where('i.target', '=', filters.target as IntegrationFields['target']);
  return query;
}

function integrationList(db: Kysely<Database>, userId: string, filters: IntegrationFilters) {
  return listedFor(db, userId, filters)
    .select(INTEGRATION_COLUMNS)
    .select(() =>
      listedFor(db, userId, filters)
        .select(sql<string>`count(*)`.as('n'))
        .as(TOTAL_COUNT),
    );
}

export type ListedIntegration = IntegrationFields & { [TOTAL_COUNT]: string };

const KEYSET = { createdAt: 'i.created_at', id: 'i.id' };

/**
 * How many integrations the caller may list without filters: the public ones
 * and the others of their organizations, each counted from the index on
 * (visibility, organization_id) alone. Counting the rows that pass
 * listedFor's `or` reads every integration's row, wide with its manifest.
 */
function allListedCount(db: Kysely<Database>, userId: string) {
  const publicCount = db
    .selectFrom('integrations as i')
    .where('i.visibility', '=', 'public')
    .select(sql<string>`count(*)`.as('n'));
  const ownCount = db
    .selectFrom('integrations as i')
    .where('i.visibility', 'in', ['unlisted', 'private'])
    .where('i.organization_id', 'in', organizationsWithRole(db, userId))
    .select(sql<string>`count(*)`.as('n'));
  return sql<string>`(${publicCount}) + (${ownCount})`;
}

/**
 * The list without filters, the one most asked for: compiled once, with one
 * plan (the creation index, filtered by visibility) whoever asks.
 */
const allIntegrations = pageQuery(
  KEYSET,
  (db, userId: string) =>
    listedFor(db, userId, {}).select(INTEGRATION_COLUMNS).select(allListedCount(db, userId).as(TOTAL_COUNT)),
  1,
  { fixedFetch: true },
);

/**
 * A page of the integrations the caller may list, newest first, each row with
 * the count of all matches; their owners (findOwners); and whether the caller
 * is an admin of any organization (isAdminOfAnyOrganization).
 */
export async function listIntegrations(
  db: Db,
  page: PageRequest,
  userId: string,
  filters: IntegrationFilters,
): Promise<{ rows: ListedIntegration[]; owners: OwnerWithCaller[]; adminsAnOrganization: boolean }> {
  const [adminsAnOrganization, rows] = await Promise.all([
    isAdminOfAnyOrganization(db, userId),
    integrationPage(db, page, userId, filters),
  ]);
  const owners = await findOwners(db, [...new Set(rows.map((row) => row.organization_id))], userId);
  return { rows, owners, adminsAnOrganization };
}

async function integrationPage(
  db: Db,
  page: PageRequest,
  userId: string,
  filters: IntegrationFilters,
): Promise<ListedIntegration[]> {
  const filtered = Object.values(filters).some((value) => value !== undefined);
  if (!filtered) return allIntegrations(db, page, userId);
  let query = integrationList(db, userId, filters);
  const after = keysetAfter(page, 'i.created_at', 'i.id');
  if (after) query = query.where(after);
  return (await query
    .orderBy('i.created_at', page.order)
    .orderBy('i.id', page.order)
    .limit(page.limit + 1)
    .execute()) as ListedIntegration[];
}

export async function countIntegrations(db: Db, userId: string, filters: IntegrationFilters): Promise<number> {
  const { n } = await listedFor(db, userId, filters)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** An organization that owns integrations, with what the caller is to it. */
export type OwnerWithCaller = OrganizationFields & { caller_role: Role | null; caller_is_member: boolean };

/** The owners of a page of integrations, in one query. */
export async function findOwners(
  db: Db,
  organizationIds: readonly string[],
  userId: string,
): Promise<OwnerWithCaller[]> {
  if (organizationIds.length === 0) return [];
  return db
    .selectFrom('organizations as o')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', userId).on('m.disabled', '=', false),
    )
    .select(ORGANIZATION_COLUMNS)
    .select(['m.role as caller_role', sql<boolean>`m.user_id is not null`.as('caller_is_member')])
    .where('o.id', 'in', organizationIds)
    .execute();
}

// A yes or no, whichever organization a plan finds first.
function adminOfAnyColumn(eb: ExpressionBuilder<Database, never>, userId: string) {
  return eb
    .exists(
      eb
        .selectFrom('organization_members')
        .select('organization_id')
        .where('user_id', '=', userId)
        .where('disabled', '=', false)
        .where('role', '=', 'admin'),
    )
    .as('admin');
}
const adminOfAny = precompiled((db, userId: string) => db.selectNoFrom((eb) => adminOfAnyColumn(eb, userId)));

/** Whether the user is an admin of at least one organization: somewhere an integration could be installed. */
export async function isAdminOfAnyOrganization(db: Db, userId: string): Promise<boolean> {
  const [row] = await adminOfAny(db, userId);
  return row?.admin === true;
}

/** An organization by its id or its subdomain (hostname), with what the caller is to it. */
export async function findOrganizationByIdOrSubdomain(
  db: Db,
  idOrSubdomain: string,
  userId: string,
): Promise<{ id: string; caller_role: Role | null; caller_is_member: boolean } | undefined> {
  return db
    .selectFrom('organizations as o')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', userId).on('m.disabled', '=', false),
    )
    .select(['o.id', 'm.role as caller_role', sql<boolean>`m.user_id is not null`.as('caller_is_member')])
    .where((eb) => eb.or([eb('o.id', '=', idOrSubdomain), eb('o.hostname', '=', idOrSubdomain.toLowerCase())]))
    .orderBy(sql`o.id = ${idOrSubdomain}`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

export type IntegrationDefinition = Omit<
  Insertable<IntegrationsTable>,
  'id' | 'version' | 'created_at' | 'has_blocks' | 'has_content_sources'
> & { updated_at: Date };

/**
 * Creates the integration, or replaces the definition of the one its
 * organization already publishes under this name (bumping the version), in
 * one statement: a name another organization holds, even one taken by a
 * publish running at the same moment, gives no row.
 */
export async function upsertIntegration(
  db: Db,
  id: string,
  definition: IntegrationDefinition,
): Promise<{ id: string; version: number } | undefined> {
  return db
    .insertInto('integrations')
    .values({ id, ...definition, created_at: definition.updated_at })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({
          version: sql<number>`integrations.version + 1`,
          runtime: eb.ref('excluded.runtime'),
          title: eb.ref('excluded.title'),
          description: eb.ref('excluded.description'),
          summary: eb.ref('excluded.summary'),
          visibility: eb.ref('excluded.visibility'),
          target: eb.ref('excluded.target'),
          scopes: eb.ref('excluded.scopes'),
          categories: eb.ref('excluded.categories'),
          blocks: eb.ref('excluded.blocks'),
          content_sources: eb.ref('excluded.content_sources'),
          configurations: eb.ref('excluded.configurations'),
          external_links: eb.ref('excluded.external_links'),
          content_security_policy: eb.ref('excluded.content_security_policy'),
          block_domains: eb.ref('excluded.block_domains'),
          icon: eb.ref('excluded.icon'),
          preview_images: eb.ref('excluded.preview_images'),
          script: eb.ref('excluded.script'),
          endpoint_url: eb.ref('excluded.endpoint_url'),
          updated_at: eb.ref('excluded.updated_at'),
        }))
        .where('integrations.organization_id', '=', definition.organization_id),
    )
    .returning(['id', 'version'])
    .executeTakeFirst();
}

export interface NewAsset {
  id: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  sha256: Buffer;
}

/** Replaces the integration's images with `assets`. */
export async function replaceAssets(
  db: Db,
  organizationId: string,
  integrationId: string,
  assets: readonly NewAsset[],
): Promise<void> {
  await db.deleteFrom('integration_assets').where('integration_id', '=', integrationId).execute();
  if (assets.length === 0) return;
  await db
    .insertInto('integration_assets')
    .values(assets.map((asset) => ({ ...asset, organization_id: organizationId, integration_id: integrationId })))
    .execute();
}

/** Replaces the integration's secrets with these sealed values. */
export async function replaceSecrets(
  db: Db,
  organizationId: string,
  integrationId: string,
  secrets: ReadonlyArray<{ name: string; sealed: string; keyId: string }>,
): Promise<void> {
  await db.deleteFrom('integration_secrets').where('integration_id', '=', integrationId).execute();
  if (secrets.length === 0) return;
  await db
    .insertInto('integration_secrets')
    .values(
      secrets.map((secret) => ({
        integration_id: integrationId,
        organization_id: organizationId,
        name: secret.name,
        sealed: secret.sealed,
        key_id: secret.keyId,
      })),
    )
    .execute();
}

/** Deletes the integration; its images, secrets and installations go with it (ON DELETE CASCADE). */
export async function deleteIntegration(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('integrations')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

const assetByName = precompiled((db, integrationName: string, assetId: string) =>
  db
    .selectFrom('integration_assets as a')
    .innerJoin('integrations as i', 'i.id', 'a.integration_id')
    .select(['a.content_type', 'a.bytes', 'a.sha256'])
    .where('a.id', '=', assetId)
    .where('i.name', '=', integrationName),
);

/** An image of the integration, by its asset id. */
export async function findAsset(
  db: Db,
  integrationName: string,
  assetId: string,
): Promise<{ content_type: string; bytes: Buffer; sha256: Buffer } | undefined> {
  return (await assetByName(db, integrationName, assetId))[0];
}
