import type { Db } from '../../db/database.js';
import type { SiteAdaptiveJSONSchema } from './schemas.js';

/** Replaces the site's adaptive schema; the caller holds the site's lock. */
export async function setAdaptiveSchema(
  db: Db,
  organizationId: string,
  siteId: string,
  jsonSchema: SiteAdaptiveJSONSchema,
  at: Date,
): Promise<void> {
  await db
    .updateTable('sites')
    .set({ adaptive_schema: JSON.stringify(jsonSchema), adaptive_schema_updated_at: at, updated_at: at })
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .execute();
}
