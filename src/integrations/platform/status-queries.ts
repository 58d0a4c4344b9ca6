import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import { TOTAL_COUNT, type PageRequest } from '../../core/pagination.js';
import type { InstallationTargetType } from './schemas.js';

/**
 * An organization's installations with their status and target: on the
 * organization itself, or on one of its spaces or sites. Each row is keyed by
 * its creation time and an id unique in the list (a space or site
 * installation's is the installation's and the space's or site's).
 */

export interface StatusFilters {
  target: InstallationTargetType;
  spaceId?: string | undefined;
  siteId?: string | undefined;
  /** Only this installation's (an installation's own token). */
  installationId?: string | undefined;
}

export interface InstallationStatusRow {
  key: string;
  created_at: Date;
  status: 'active' | 'pending' | 'paused';
  integration_id: string;
  target_id: string;
  [TOTAL_COUNT]: string | null;
}

function statusesOf(db: Kysely<Database>, organizationId: string, filters: StatusFilters) {
  let query = db
    .selectFrom('integration_installations as ii')
    .where('ii.organization_id', '=', organizationId)
    .$if(filters.installationId !== undefined, (q) => q.where('ii.id', '=', filters.installationId!));
  if (filters.target === 'space') {
    query = query
      .innerJoin('integration_space_installations as ci', 'ci.installation_id', 'ii.id')
      .innerJoin('spaces as s', (join) =>
        join.onRef('s.organization_id', '=', 'ci.organization_id').onRef('s.id', '=', 'ci.space_id'),
      )
      .where('s.deleted_at', 'is', null)
      .$if(filters.spaceId !== undefined, (q) => q.where('ci.space_id', '=', filters.spaceId!));
  } else if (filters.target === 'site') {
    query = query
      .innerJoin('integration_site_installations as ci', 'ci.installation_id', 'ii.id')
      .$if(filters.siteId !== undefined, (q) => q.where('ci.site_id', '=', filters.siteId!));
  }
  return query;
}

/** The row's key, creation time and target in SQL, by target. */
function columnsOf(target: InstallationTargetType): {
  key: RawBuilder<string>;
  createdAt: RawBuilder<Date>;
  targetId: RawBuilder<string>;
} {
  if (target === 'organization') {
    return { key: sql<string>`ii.id`, createdAt: sql<Date>`ii.created_at`, targetId: sql<string>`ii.organization_id` };
  }
  const content = target === 'space' ? sql<string>`ci.space_id` : sql<string>`ci.site_id`;
  return { key: sql<string>`ii.id || '/' || ${content}`, createdAt: sql<Date>`ci.created_at`, targetId: content };
}

export async function listInstallationStatuses(
  db: Db,
  page: PageRequest,
  organizationId: string,
  filters: StatusFilters,
): Promise<InstallationStatusRow[]> {
  const { key, createdAt, targetId } = columnsOf(filters.target);
  let query = statusesOf(db, organizationId, filters)
    .select([key.as('key'), createdAt.as('created_at'), 'ii.status', 'ii.integration_id', targetId.as('target_id')])
    .select(() =>
      statusesOf(db, organizationId, filters)
        .select(sql<string>`count(*)`.as('n'))
        .as(TOTAL_COUNT),
    );
  if (page.after) {
    const position = sql`(${page.after.createdAt.toISOString()}::timestamptz, ${page.after.id})`;
    query = query.where(
      page.order === 'desc'
        ? sql<boolean>`(${createdAt}, ${key}) < ${position}`
        : sql<boolean>`(${createdAt}, ${key}) > ${position}`,
    );
  }
  const direction = sql.raw(page.order === 'desc' ? 'desc' : 'asc');
  return await query
    .orderBy(sql`${createdAt} ${direction}`)
    .orderBy(sql`${key} ${direction}`)
    .limit(page.limit + 1)
    .execute();
}

export async function countInstallationStatuses(
  db: Db,
  organizationId: string,
  filters: StatusFilters,
): Promise<number> {
  const { n } = await statusesOf(db, organizationId, filters)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The status of the integration's installation on the organization, if it is installed there. */
export async function findInstallationStatus(
  db: Db,
  organizationId: string,
  integrationId: string,
): Promise<'active' | 'pending' | 'paused' | undefined> {
  const row = await db
    .selectFrom('integration_installations')
    .select('status')
    .where('organization_id', '=', organizationId)
    .where('integration_id', '=', integrationId)
    .executeTakeFirst();
  return row?.status;
}
