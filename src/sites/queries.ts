import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SitesTable } from '../db/types.js';

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
export const SITE_FIELDS = [
  'id',
  'organization_id',
  'type',
  'title',
  'visibility',
  'published',
  'basename',
  'proxy',
  'agents_context',
  'adaptive_enabled',
  'adaptive_schema',
  'adaptive_schema_updated_at',
  'customization',
  'auth_backend',
  'auth_fallback_url',
  'auth_private_key_encrypted',
  'default_section_id',
  'default_site_space_id',
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

export async function lockSiteRow(db: Db, organizationId: string, siteId: string): Promise<SiteRow | undefined> {
  return db
    .selectFrom('sites')
    .select(SITE_FIELDS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .forUpdate()
    .executeTakeFirst();
}
