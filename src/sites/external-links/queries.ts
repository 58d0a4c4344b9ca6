import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SiteExternalLinks } from '../../db/tables.generated.js';

export type LinkChanges = Omit<Updateable<SiteExternalLinks>, 'id' | 'organization_id' | 'site_id' | 'created_at'>;

export async function insertExternalLink(
  db: Db,
  organizationId: string,
  siteId: string,
  values: Required<Omit<LinkChanges, 'updated_at'>> & { id: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('site_external_links')
    .values({ ...values, organization_id: organizationId, site_id: siteId, created_at: now, updated_at: null })
    .execute();
}

export async function updateExternalLink(
  db: Db,
  organizationId: string,
  siteId: string,
  linkId: string,
  changes: LinkChanges,
): Promise<void> {
  await db
    .updateTable('site_external_links')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('id', '=', linkId)
    .execute();
}

/** Whether there was such a link to delete. */
export async function deleteExternalLink(
  db: Db,
  organizationId: string,
  siteId: string,
  linkId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('site_external_links')
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('id', '=', linkId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
