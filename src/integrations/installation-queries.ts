import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, IntegrationInstallationsTable, Role } from '../db/types.js';
import { keysetAfter, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';

const INSTALLATION_COLUMNS = [
  'ii.id',
  'ii.organization_id',
  'ii.integration_id',
  'ii.status',
  'ii.configuration',
  'ii.external_ids',
  'ii.created_at',
  'ii.updated_at',
] as const;

export type InstallationFields = Selectable<IntegrationInstallationsTable> & {
  /** Live spaces of its organization it is installed on. */
  spaces_count: number | null;
  has_sites: SqlBool;
};

/** The installation's columns, with its count of spaces and whether it has sites, for `ii`. */
export function selectInstallation(db: Kysely<Database>) {
  return db
    .selectFrom('integration_installations as ii')
    .select(INSTALLATION_COLUMNS)
    .select((eb) => [
      eb
        .selectFrom('integration_space_installations as si')
        .innerJoin('spaces as s', 's.id', 'si.space_id')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('si.installation_id', '=', 'ii.id')
        .whereRef('s.organization_id', '=', 'ii.organization_id')
        .where('s.deleted_at', 'is', null)
        .as('spaces_count'),
      eb
        .exists(
          eb
            .selectFrom('integration_site_installations as ti')
            .select('ti.site_id')
            .whereRef('ti.installation_id', '=', 'ii.id'),
        )
        .as('has_sites'),
    ]);
}

/** An installation with what the caller is to the organization it is installed on. */
export type InstallationWithCaller = InstallationFields & { caller_role: Role | null; caller_is_member: boolean };

export async function findInstallation(
  db: Db,
  integrationId: string,
  installationId: string,
  userId: string,
): Promise<InstallationWithCaller | undefined> {
  return selectInstallation(db)
    .leftJoin('organization_members as m', (join) =>
      join
        .onRef('m.organization_id', '=', 'ii.organization_id')
        .on('m.user_id', '=', userId)
        .on('m.disabled', '=', false),
    )
    .select(['m.role as caller_role', sql<boolean>`m.user_id is not null`.as('caller_is_member')])
    .where('ii.integration_id', '=', integrationId)
    .where('ii.id', '=', installationId)
    .executeTakeFirst();
}

export interface InstallationFilters {
  /** Only the installations on organizations where this user is an admin; undefined: all of them. */
  adminUserId: string | undefined;
  externalId: string | undefined;
}

function installationsOf(db: Kysely<Database>, integrationId: string, filters: InstallationFilters) {
  let query = db.selectFrom('integration_installations as ii').where('ii.integration_id', '=', integrationId);
  if (filters.adminUserId !== undefined) {
    const userId = filters.adminUserId;
    query = query.where('ii.organization_id', 'in', (eb) =>
      eb
        .selectFrom('organization_members as a')
        .select('a.organization_id')
        .where('a.user_id', '=', userId)
        .where('a.disabled', '=', false)
        .where('a.role', '=', 'admin'),
    );
  }
  if (filters.externalId !== undefined) {
    query = query.where(sql<boolean>`ii.external_ids @> array[${filters.externalId}]::text[]`);
  }
  return query;
}

/** A page of an integration's installations, each row with the count of all that match. */
export async function listInstallations(
  db: Db,
  page: PageRequest,
  integrationId: string,
  filters: InstallationFilters,
): Promise<Array<InstallationFields & { [TOTAL_COUNT]: string | null }>> {
  let query = selectInstallation(db)
    .where('ii.id', 'in', installationsOf(db, integrationId, filters).select('ii.id'))
    .select(() =>
      installationsOf(db, integrationId, filters)
        .select(sql<string>`count(*)`.as('n'))
        .as(TOTAL_COUNT),
    );
  const after = keysetAfter(page, 'ii.created_at', 'ii.id');
  if (after) query = query.where(after);
  return query
    .where('ii.integration_id', '=', integrationId)
    .orderBy('ii.created_at', page.order)
    .orderBy('ii.id', page.order)
    .limit(page.limit + 1)
    .execute();
}

export async function countInstallations(db: Db, integrationId: string, filters: InstallationFilters): Promise<number> {
  const { n } = await installationsOf(db, integrationId, filters)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Installs; undefined when the integration is already installed on the organization. */
export async function insertInstallation(
  db: Db,
  values: { id: string; organization_id: string; integration_id: string; created_at: Date; updated_at: Date },
): Promise<{ id: string } | undefined> {
  return db
    .insertInto('integration_installations')
    .values(values)
    .onConflict((oc) => oc.columns(['integration_id', 'organization_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

export interface InstallationChanges {
  configuration?: string;
  external_ids?: string[];
  updated_at: Date;
}

/** `installation`: its id and the organization it is installed on. */
type InstallationKey = { id: string; organization_id: string };

export async function updateInstallation(
  db: Db,
  installation: InstallationKey,
  changes: InstallationChanges,
): Promise<void> {
  await db
    .updateTable('integration_installations')
    .set(changes)
    .where('organization_id', '=', installation.organization_id)
    .where('id', '=', installation.id)
    .execute();
}

/** Uninstalls; its spaces and sites go with it (ON DELETE CASCADE). */
export async function deleteInstallation(db: Db, installation: InstallationKey): Promise<boolean> {
  const result = await db
    .deleteFrom('integration_installations')
    .where('organization_id', '=', installation.organization_id)
    .where('id', '=', installation.id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
