import type { Db } from '../../db/database.js';

/** Replaces a site's customization settings (jsonb, written as JSON text). */
export async function storeSiteCustomization(
  db: Db,
  organizationId: string,
  siteId: string,
  settings: object,
  now: Date,
): Promise<void> {
  await db
    .updateTable('sites')
    .set({ customization: JSON.stringify(settings), updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .execute();
}
