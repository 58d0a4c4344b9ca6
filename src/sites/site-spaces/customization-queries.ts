import type { Db } from '../../db/database.js';

/** Replaces a site space's customization override (jsonb, written as JSON text); null removes it. */
export async function storeSiteSpaceCustomization(
  db: Db,
  organizationId: string,
  siteSpaceId: string,
  override: Record<string, unknown> | null,
): Promise<void> {
  await db
    .updateTable('site_spaces')
    .set({ customization: override === null ? null : JSON.stringify(override) })
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteSpaceId)
    .execute();
}
